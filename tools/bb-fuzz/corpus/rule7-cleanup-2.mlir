block.program @merge_across_regions axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %v0 = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %e = block.exp %v0 : !block.tile<[M], f32>
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
      %p = block.mul %x, %v : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %y = block.add %s, %e : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
