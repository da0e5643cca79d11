block.program @matrix_into_reduce axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %Y: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %P = block.map [M, K] -> !block.array<10x9xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %e = block.exp %x : !block.tile<[M, K], f32>
    block.yield %e : !block.tile<[M, K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %y = block.load %Y[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %q = block.mul %p, %y : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %t = block.tile_reduce add %q over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}
