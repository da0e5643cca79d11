block.program @negative_bf16_scale axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xbf16>, %W: !block.array<6x7xbf16>, %R: !block.array<10xbf16>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xbf16> -> !block.tile<[M, J], bf16>
    %w = block.load %W[J, N] : !block.array<6x7xbf16> -> !block.tile<[J, N], bf16>
    %r = block.load %R[M] : !block.array<10xbf16> -> !block.tile<[M], bf16>
    %xr = block.mul %x, %r : !block.tile<[M, J], bf16>, !block.tile<[M], bf16>
    %d = block.dot %xr, %w contract [J] : !block.tile<[M, J], bf16>, !block.tile<[J, N], bf16>
    block.yield %d : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
