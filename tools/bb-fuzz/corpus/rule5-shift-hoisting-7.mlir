block.program @negative_shift_along_k axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %V: !block.array<10x6xf32>, %W: !block.array<6x7xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %v = block.load %V[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %d = block.sub %x, %v : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
