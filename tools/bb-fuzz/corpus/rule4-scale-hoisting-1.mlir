block.program @lhs_product_swapped_relayout axes(M = 10 tiled, N = 7 tiled, D = 3 whole, J = 6 whole)
    (%X: !block.array<10x3x6xf32>, %W: !block.array<6x7xf32>, %R: !block.array<3xf32>)
    -> !block.array<3x10x7xf32> {
  %Y = block.map [M, N] -> !block.array<3x10x7xf32> {
    %x = block.load %X[M, D, J] : !block.array<10x3x6xf32> -> !block.tile<[M, D, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %r = block.load %R[D] : !block.array<3xf32> -> !block.tile<[D], f32>
    %xr = block.mul %r, %x : !block.tile<[D], f32>, !block.tile<[M, D, J], f32>
    %d = block.dot %xr, %w contract [J] : !block.tile<[D, M, J], f32>, !block.tile<[J, N], f32>
    block.yield %d : !block.tile<[D, M, N], f32>
  }
  block.return %Y : !block.array<3x10x7xf32>
}
