// Flash-RMSNorm+FFN-SwiGLU: the fused form of rmsnorm_ffn_swiglu.unfused.mlir
// that block-fuse must derive (design note 02, "RMSNorm + FFN-SwiGLU"). One
// mega-kernel over [M, C]: a reduce over the blocks of F whose body holds a
// reduce over the blocks of D. The three contractions, the RMS statistic,
// SiLU and the Hadamard product all stay in local memory; none of Xn, A1,
// A3, S, H (M x D, M x F) nor r exists as an array.
//
// It takes the same inputs as the unfused program, with the same storage
// (bf16) and f32 arithmetic. With W1' = g * W1 and W3' = g * W3 (g folded
// into each loaded weight tile: a per-D scale cannot leave the D loop, so it
// goes into the weight, rule 4), for one block of F:
//   a1[m, f] = sum_d X[m, d] W1'[d, f]   a3[m, f] = sum_d X[m, d] W3'[d, f]
//   ss[m]    = sum_d X[m, d]^2
//   r[m]     = rsqrt(ss / D + eps)
// and since r[m] does not depend on d (rule 4 hoists it out of the D loop),
//   A1[m, f] = sum_d (X r g)[m, d] W1[d, f] = r[m] a1[m, f],  A3 = r a3,
//   H = silu(r a1) * (r a3)                              (an [M, F] block)
//   out[m, c] = sum_f H[m, f] W2[f, c]
// which is the unfused program up to floating-point reassociation and the
// places where values are rounded to bf16 (there: Xn, A1, A3, S, H; here:
// g * W1, g * W3 and H, which feed bf16 contractions).
//
// The up-projection (the inner reduce over D) is recomputed for every block
// of C: with C tiled, FLOPs and X, W1, W3 traffic grow by numBlocks(C); with
// C whole they do not, at the cost of an [M, C] accumulator in local memory.
// That trade is block-select's to make.
block.program @rmsnorm_ffn_swiglu axes(M = 256 tiled, D = 512 tiled, F = 1024 tiled, C = 512 tiled)
    (%X: !block.array<256x512xbf16>, %g: !block.array<512xbf16>,
     %W1: !block.array<512x1024xbf16>, %W3: !block.array<512x1024xbf16>,
     %W2: !block.array<1024x512xbf16>) -> !block.array<256x512xbf16> {
  %out = block.map [M, C] -> !block.array<256x512xbf16> {
    %o = block.reduce F combiners [add] -> !block.tile<[M, C], f32> {
      %a1, %a3, %ss = block.reduce D combiners [add, add, add] -> !block.tile<[M, F], f32>, !block.tile<[M, F], f32>, !block.tile<[M], f32> {
        %x = block.load %X[M, D] : !block.array<256x512xbf16> -> !block.tile<[M, D], bf16>
        %gg = block.load %g[D] : !block.array<512xbf16> -> !block.tile<[D], bf16>
        %w1 = block.load %W1[D, F] : !block.array<512x1024xbf16> -> !block.tile<[D, F], bf16>
        %w3 = block.load %W3[D, F] : !block.array<512x1024xbf16> -> !block.tile<[D, F], bf16>
        // W1' = g * W1, W3' = g * W3, in the tile
        %gf = block.cast %gg : !block.tile<[D], bf16> to !block.tile<[D], f32>
        %w1f = block.cast %w1 : !block.tile<[D, F], bf16> to !block.tile<[D, F], f32>
        %w1g = block.mul %w1f, %gf : !block.tile<[D, F], f32>, !block.tile<[D], f32>
        %w1b = block.cast %w1g : !block.tile<[D, F], f32> to !block.tile<[D, F], bf16>
        %w3f = block.cast %w3 : !block.tile<[D, F], bf16> to !block.tile<[D, F], f32>
        %w3g = block.mul %w3f, %gf : !block.tile<[D, F], f32>, !block.tile<[D], f32>
        %w3b = block.cast %w3g : !block.tile<[D, F], f32> to !block.tile<[D, F], bf16>
        %p1 = block.dot %x, %w1b contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, F], bf16>
        %p3 = block.dot %x, %w3b contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, F], bf16>
        // sum of squares of the row, for the RMS statistic
        %xf = block.cast %x : !block.tile<[M, D], bf16> to !block.tile<[M, D], f32>
        %xx = block.mul %xf, %xf : !block.tile<[M, D], f32>, !block.tile<[M, D], f32>
        %s = block.tile_reduce add %xx over [D] : !block.tile<[M, D], f32>
        block.yield %p1, %p3, %s : !block.tile<[M, F], f32>, !block.tile<[M, F], f32>, !block.tile<[M], f32>
      }
      // r = rsqrt(ss / D + eps), a row scale applied after the D loop
      %d = block.constant [] 5.120000e+02 : f32
      %eps = block.constant [] 9.99999974E-6 : f32
      %ms = block.div %ss, %d : !block.tile<[M], f32>, !block.tile<[], f32>
      %mse = block.add %ms, %eps : !block.tile<[M], f32>, !block.tile<[], f32>
      %r = block.rsqrt %mse : !block.tile<[M], f32>
      // H = silu(a1 * r) * (a3 * r), an [M, F] block in local memory
      %b1 = block.mul %a1, %r : !block.tile<[M, F], f32>, !block.tile<[M], f32>
      %b3 = block.mul %a3, %r : !block.tile<[M, F], f32>, !block.tile<[M], f32>
      %si = block.silu %b1 : !block.tile<[M, F], f32>
      %h = block.mul %si, %b3 : !block.tile<[M, F], f32>, !block.tile<[M, F], f32>
      %hb = block.cast %h : !block.tile<[M, F], f32> to !block.tile<[M, F], bf16>
      %w2 = block.load %W2[F, C] : !block.array<1024x512xbf16> -> !block.tile<[F, C], bf16>
      %p = block.dot %hb, %w2 contract [F] : !block.tile<[M, F], bf16>, !block.tile<[F, C], bf16>
      block.yield %p : !block.tile<[M, C], f32>
    }
    %ob = block.cast %o : !block.tile<[M, C], f32> to !block.tile<[M, C], bf16>
    block.yield %ob : !block.tile<[M, C], bf16>
  }
  block.return %out : !block.array<256x512xbf16>
}
