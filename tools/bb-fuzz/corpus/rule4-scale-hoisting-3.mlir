block.program @divisors axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %l = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %r = block.exp %l : !block.tile<[M], f32>
    %xr = block.div %x, %r : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %d1 = block.dot %xr, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %d2 = block.dot %w, %xr contract [J] : !block.tile<[J, N], f32>, !block.tile<[M, J], f32>
    %s = block.add %d1, %d2 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
