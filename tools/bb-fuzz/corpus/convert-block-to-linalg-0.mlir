block.program @loads axes(M = 100 tiled block 32, N = 64 tiled block 16, D = 8 whole)
    (%x: !block.array<100x8xf32>, %w: !block.array<8x64xf32>, %b: !block.array<1x80xf32>)
    -> !block.array<100x64xf32> {
  %y = block.map [M, N] -> !block.array<100x64xf32> {
    %t = block.load %x[M, D] : !block.array<100x8xf32> -> !block.tile<[M, D], f32>
    %wt = block.load %w[D, N] : !block.array<8x64xf32> -> !block.tile<[N, D], f32>
    %bb = block.load %b[0, N + 16] : !block.array<1x80xf32> -> !block.tile<[N], f32>
    %s = block.dot %t, %wt contract [D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
    %r = block.add %s, %bb : !block.tile<[M, N], f32>, !block.tile<[N], f32>
    block.yield %r : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<100x64xf32>
}
