block.program @vector_into_reduce axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
    %n = block.neg %g : !block.tile<[K], f32>
    block.yield %n : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [max] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %p = block.load %P[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %q = block.mul %x, %p : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %t = block.tile_reduce max %q over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}
