block.program @negative_scale_along_k axes(M = 10 tiled, N = 7 tiled, K = 9 tiled, J = 6 whole)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xf32>, %G: !block.array<9xf32>,
     %XJ: !block.array<10x6xf32>, %WJ: !block.array<6x7xf32>, %GJ: !block.array<6xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %xj = block.load %XJ[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %gj = block.load %GJ[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %xgj = block.mul %xj, %gj : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %wj = block.load %WJ[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %dj = block.dot %xgj, %wj contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %xg = block.mul %x, %g : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %d = block.dot %xg, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %d : !block.tile<[M, N], f32>
    }
    %y = block.add %acc, %dj : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
