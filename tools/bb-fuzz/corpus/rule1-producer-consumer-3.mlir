block.program @load_in_reduce axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %V: !block.array<10xf32>) -> !block.array<10xf32> {
  %S = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %s = block.exp %v : !block.tile<[M], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %sum = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %s = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
      %p = block.mul %x, %s : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %sum : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}
