block.program @negative_factor_not_to_weight axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %G: !block.array<6xf32>,
     %XB: !block.array<10x6xbf16>, %WB: !block.array<6x7xbf16>, %GB: !block.array<6xbf16>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %l = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %x = block.exp %l : !block.tile<[M, J], f32>
    %lw = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %w = block.exp %lw : !block.tile<[J, N], f32>
    %g = block.load %G[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %xg = block.mul %x, %g : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %d1 = block.dot %xg, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %lb = block.load %XB[M, J] : !block.array<10x6xbf16> -> !block.tile<[M, J], bf16>
    %y = block.exp %lb : !block.tile<[M, J], bf16>
    %wb = block.load %WB[J, N] : !block.array<6x7xbf16> -> !block.tile<[J, N], bf16>
    %gb = block.load %GB[J] : !block.array<6xbf16> -> !block.tile<[J], bf16>
    %yg = block.mul %y, %gb : !block.tile<[M, J], bf16>, !block.tile<[J], bf16>
    %d2 = block.dot %yg, %wb contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    %s = block.add %d1, %d2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
