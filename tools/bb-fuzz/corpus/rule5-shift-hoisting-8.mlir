block.program @negative_bf16 axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xbf16>, %B: !block.array<6xbf16>, %W: !block.array<6x7xbf16>, %U: !block.array<10xbf16>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xbf16> -> !block.tile<[M, J], bf16>
    %b = block.load %B[J] : !block.array<6xbf16> -> !block.tile<[J], bf16>
    %w = block.load %W[J, N] : !block.array<6x7xbf16> -> !block.tile<[J, N], bf16>
    %u = block.load %U[M] : !block.array<10xbf16> -> !block.tile<[M], bf16>
    %d = block.sub %x, %u : !block.tile<[M, J], bf16>, !block.tile<[M], bf16>
    %y1 = block.dot %d, %w contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    %s = block.add %x, %b : !block.tile<[M, J], bf16>, !block.tile<[J], bf16>
    %y2 = block.dot %s, %w contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    %y = block.add %y1, %y2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
