block.program @dot_and_casts axes(M = 4 tiled block 4, K = 8 whole, N = 5 whole, B = 3 whole)
    (%a: !block.array<4x8xbf16>, %b: !block.array<8x5xbf16>) -> !block.array<4x3x5xbf16> {
  %r = block.map [M] -> !block.array<4x3x5xbf16> {
    %at = block.load %a[M, K] : !block.array<4x8xbf16> -> !block.tile<[M, K], bf16>
    %bt = block.load %b[K, N] : !block.array<8x5xbf16> -> !block.tile<[K, N], bf16>
    %d = block.dot %at, %bt contract [K] : !block.tile<[M, K], bf16>, !block.tile<[K, N], bf16>
    %n = block.neg %d : !block.tile<[M, N], f32>
    %ab = block.abs %n : !block.tile<[M, N], f32>
    %lg = block.log %ab : !block.tile<[M, N], f32>
    %sq = block.sqrt %ab : !block.tile<[M, N], f32>
    %er = block.erf %lg : !block.tile<[M, N], f32>
    %sn = block.sin %er : !block.tile<[M, N], f32>
    %cs = block.cos %sn : !block.tile<[M, N], f32>
    %dv = block.div %cs, %sq : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %mx = block.max %dv, %d : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %mn = block.min %mx, %d : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %i = block.cast %mn : !block.tile<[M, N], f32> to !block.tile<[M, N], i32>
    %f = block.cast %i : !block.tile<[M, N], i32> to !block.tile<[M, N], f32>
    %lt = block.compare lt %f, %mn : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %uge = block.compare uge %f, %mn : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %lf = block.cast %lt : !block.tile<[M, N], i1> to !block.tile<[M, N], f32>
    %h = block.cast %lf : !block.tile<[M, N], f32> to !block.tile<[M, N], bf16>
    %o = block.broadcast %h : !block.tile<[M, N], bf16> to !block.tile<[M, B, N], bf16>
    block.yield %o : !block.tile<[M, B, N], bf16>
  }
  block.return %r : !block.array<4x3x5xbf16>
}
