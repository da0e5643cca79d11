block.program @elementwise axes(M = 8 tiled block 4, N = 6 whole)
    (%x: !block.array<8x6xf16>, %y: !block.array<6xf16>)
    -> (!block.array<8x6xf16>, !block.array<8x6xi32>) {
  %r, %k = block.map [M] -> !block.array<8x6xf16>, !block.array<8x6xi32> {
    %a = block.load %x[M, N] : !block.array<8x6xf16> -> !block.tile<[M, N], f16>
    %b = block.load %y[N] : !block.array<6xf16> -> !block.tile<[N], f16>
    %s = block.sub %b, %a : !block.tile<[N], f16>, !block.tile<[M, N], f16>
    %g = block.gelu %s : !block.tile<[N, M], f16>
    %si = block.silu %g : !block.tile<[N, M], f16>
    %e = block.exp %si : !block.tile<[N, M], f16>
    %rs = block.rsqrt %e : !block.tile<[N, M], f16>
    %t = block.tanh %rs : !block.tile<[N, M], f16>
    %row = block.iota M : !block.tile<[M], index>
    %col = block.iota N : !block.tile<[N], index>
    %mask = block.compare ge %row, %col : !block.tile<[M], index>, !block.tile<[N], index>
    %z = block.constant [] 0.0 : f16
    %sel = block.select %mask, %t, %z : !block.tile<[M, N], i1>, !block.tile<[N, M], f16>, !block.tile<[], f16>
    %o = block.broadcast %sel : !block.tile<[M, N], f16> to !block.tile<[M, N], f16>
    %ri = block.cast %row : !block.tile<[M], index> to !block.tile<[M], i32>
    %ci = block.cast %col : !block.tile<[N], index> to !block.tile<[N], i32>
    %ki = block.add %ri, %ci : !block.tile<[M], i32>, !block.tile<[N], i32>
    block.yield %o, %ki : !block.tile<[M, N], f16>, !block.tile<[M, N], i32>
  }
  block.return %r, %k : !block.array<8x6xf16>, !block.array<8x6xi32>
}
