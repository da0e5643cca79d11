block.program @factor_to_weight axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %V: !block.array<7x6xf32>,
     %G: !block.array<6xf32>) -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %l = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %x = block.exp %l : !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %v = block.load %V[N, J] : !block.array<7x6xf32> -> !block.tile<[N, J], f32>
    %g = block.load %G[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %xg = block.mul %x, %g : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %d1 = block.dot %xg, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %gx = block.mul %g, %x : !block.tile<[J], f32>, !block.tile<[M, J], f32>
    %d2 = block.dot %v, %gx contract [J] : !block.tile<[N, J], f32>, !block.tile<[J, M], f32>
    %s = block.add %d1, %d2 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
