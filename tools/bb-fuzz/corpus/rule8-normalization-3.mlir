block.program @negative_tiled_reduce_and_real_broadcast axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> (!block.array<10x7xf32>, !block.array<10xf32>) {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.broadcast %v : !block.tile<[M], f32> to !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  %Z = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %Y, %Z : !block.array<10x7xf32>, !block.array<10xf32>
}
