block.program @rhs_and_scalar_shifts axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<7x6xf32>, %U: !block.array<10xf32>)
    -> !block.array<7x10xf32> {
  %Y = block.map [M, N] -> !block.array<7x10xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[N, J] : !block.array<7x6xf32> -> !block.tile<[N, J], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %x, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y1 = block.dot %w, %d contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
    %half = block.constant [] 5.000000e-01 : f32
    %e = block.sub %x, %half : !block.tile<[M, J], f32>, !block.tile<[], f32>
    %y2 = block.dot %e, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[N, J], f32>
    %y = block.add %y1, %y2 : !block.tile<[N, M], f32>, !block.tile<[M, N], f32>
    block.yield %y : !block.tile<[N, M], f32>
  }
  block.return %Y : !block.array<7x10xf32>
}
