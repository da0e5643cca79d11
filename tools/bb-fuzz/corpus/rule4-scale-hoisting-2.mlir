block.program @rhs_products axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<7x6xf32>, %R: !block.array<10xf32>)
    -> !block.array<7x10xf32> {
  %Y = block.map [M, N] -> !block.array<7x10xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[N, J] : !block.array<7x6xf32> -> !block.tile<[N, J], f32>
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %xr = block.mul %x, %r : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %d1 = block.dot %w, %xr contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
    %rx = block.mul %r, %x : !block.tile<[M], f32>, !block.tile<[M, J], f32>
    %d2 = block.dot %w, %rx contract [J] : !block.tile<[N, J], f32>, !block.tile<[M, J], f32>
    %s = block.add %d1, %d2 : !block.tile<[N, M], f32>, !block.tile<[N, M], f32>
    block.yield %s : !block.tile<[N, M], f32>
  }
  block.return %Y : !block.array<7x10xf32>
}
