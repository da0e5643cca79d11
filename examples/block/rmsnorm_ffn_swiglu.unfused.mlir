// RMSNorm followed by a SwiGLU feed-forward block (LLaMA style),
//   xn  = X * rsqrt(mean(X^2) + eps) * g                   (eps = 1e-5)
//   out = (silu(xn @ W1) * (xn @ W3)) @ W2
// with X[M, D], g[D], W1, W3[D, F], W2[F, C], written as a frontend
// conversion produces it: one top-level map (one kernel) per array operator,
// r, Xn, A1, A3, S, H and out. C indexes the output columns: it is the model
// dimension again, but in another role than D (the contraction of the
// up-projections), so it is its own axis (design note 01, section 2).
//
// Storage is bf16 (inputs, activations, output); the row statistic r is kept
// in f32. Arithmetic is f32: block.dot takes the bf16 tiles and accumulates
// in f32, elementwise work casts to f32, and results are cast back to bf16
// where they are stored.
//
//   r[m]     = rsqrt((1/D) sum_d X[m, d]^2 + eps)
//   Xn[m, d] = X[m, d] * r[m] * g[d]
//   A1[m, f] = sum_d Xn[m, d] W1[d, f]      A3[m, f] = sum_d Xn[m, d] W3[d, f]
//   S = silu(A1)                            H = S * A3
//   out[m, c] = sum_f H[m, f] W2[f, c]
//
// Five M x D or M x F arrays (Xn, A1, A3, S, H) go through global memory.
// rmsnorm_ffn_swiglu.fused.mlir is the one-kernel form that block-fuse must
// derive (design note 02, "RMSNorm + FFN-SwiGLU").
block.program @rmsnorm_ffn_swiglu axes(M = 256 tiled, D = 512 tiled, F = 1024 tiled, C = 512 tiled)
    (%X: !block.array<256x512xbf16>, %g: !block.array<512xbf16>,
     %W1: !block.array<512x1024xbf16>, %W3: !block.array<512x1024xbf16>,
     %W2: !block.array<1024x512xbf16>) -> !block.array<256x512xbf16> {
  // r = rsqrt(mean(X^2) + eps) along D
  %r = block.map [M] -> !block.array<256xf32> {
    %ss = block.reduce D combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, D] : !block.array<256x512xbf16> -> !block.tile<[M, D], bf16>
      %xf = block.cast %x : !block.tile<[M, D], bf16> to !block.tile<[M, D], f32>
      %xx = block.mul %xf, %xf : !block.tile<[M, D], f32>, !block.tile<[M, D], f32>
      %t = block.tile_reduce add %xx over [D] : !block.tile<[M, D], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %d = block.constant [] 5.120000e+02 : f32
    %eps = block.constant [] 9.99999974E-6 : f32
    %ms = block.div %ss, %d : !block.tile<[M], f32>, !block.tile<[], f32>
    %mse = block.add %ms, %eps : !block.tile<[M], f32>, !block.tile<[], f32>
    %rs = block.rsqrt %mse : !block.tile<[M], f32>
    block.yield %rs : !block.tile<[M], f32>
  }
  // Xn = X * r * g
  %Xn = block.map [M, D] -> !block.array<256x512xbf16> {
    %x = block.load %X[M, D] : !block.array<256x512xbf16> -> !block.tile<[M, D], bf16>
    %rr = block.load %r[M] : !block.array<256xf32> -> !block.tile<[M], f32>
    %gg = block.load %g[D] : !block.array<512xbf16> -> !block.tile<[D], bf16>
    %xf = block.cast %x : !block.tile<[M, D], bf16> to !block.tile<[M, D], f32>
    %gf = block.cast %gg : !block.tile<[D], bf16> to !block.tile<[D], f32>
    %xr = block.mul %xf, %rr : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    %xg = block.mul %xr, %gf : !block.tile<[M, D], f32>, !block.tile<[D], f32>
    %xb = block.cast %xg : !block.tile<[M, D], f32> to !block.tile<[M, D], bf16>
    block.yield %xb : !block.tile<[M, D], bf16>
  }
  // A1 = Xn W1
  %A1 = block.map [M, F] -> !block.array<256x1024xbf16> {
    %acc = block.reduce D combiners [add] -> !block.tile<[M, F], f32> {
      %xn = block.load %Xn[M, D] : !block.array<256x512xbf16> -> !block.tile<[M, D], bf16>
      %w = block.load %W1[D, F] : !block.array<512x1024xbf16> -> !block.tile<[D, F], bf16>
      %p = block.dot %xn, %w contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, F], bf16>
      block.yield %p : !block.tile<[M, F], f32>
    }
    %a = block.cast %acc : !block.tile<[M, F], f32> to !block.tile<[M, F], bf16>
    block.yield %a : !block.tile<[M, F], bf16>
  }
  // A3 = Xn W3
  %A3 = block.map [M, F] -> !block.array<256x1024xbf16> {
    %acc = block.reduce D combiners [add] -> !block.tile<[M, F], f32> {
      %xn = block.load %Xn[M, D] : !block.array<256x512xbf16> -> !block.tile<[M, D], bf16>
      %w = block.load %W3[D, F] : !block.array<512x1024xbf16> -> !block.tile<[D, F], bf16>
      %p = block.dot %xn, %w contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, F], bf16>
      block.yield %p : !block.tile<[M, F], f32>
    }
    %a = block.cast %acc : !block.tile<[M, F], f32> to !block.tile<[M, F], bf16>
    block.yield %a : !block.tile<[M, F], bf16>
  }
  // S = silu(A1)
  %S = block.map [M, F] -> !block.array<256x1024xbf16> {
    %a = block.load %A1[M, F] : !block.array<256x1024xbf16> -> !block.tile<[M, F], bf16>
    %af = block.cast %a : !block.tile<[M, F], bf16> to !block.tile<[M, F], f32>
    %s = block.silu %af : !block.tile<[M, F], f32>
    %sb = block.cast %s : !block.tile<[M, F], f32> to !block.tile<[M, F], bf16>
    block.yield %sb : !block.tile<[M, F], bf16>
  }
  // H = S * A3
  %H = block.map [M, F] -> !block.array<256x1024xbf16> {
    %s = block.load %S[M, F] : !block.array<256x1024xbf16> -> !block.tile<[M, F], bf16>
    %a = block.load %A3[M, F] : !block.array<256x1024xbf16> -> !block.tile<[M, F], bf16>
    %sf = block.cast %s : !block.tile<[M, F], bf16> to !block.tile<[M, F], f32>
    %af = block.cast %a : !block.tile<[M, F], bf16> to !block.tile<[M, F], f32>
    %h = block.mul %sf, %af : !block.tile<[M, F], f32>, !block.tile<[M, F], f32>
    %hb = block.cast %h : !block.tile<[M, F], f32> to !block.tile<[M, F], bf16>
    block.yield %hb : !block.tile<[M, F], bf16>
  }
  // out = H W2
  %out = block.map [M, C] -> !block.array<256x512xbf16> {
    %acc = block.reduce F combiners [add] -> !block.tile<[M, C], f32> {
      %h = block.load %H[M, F] : !block.array<256x1024xbf16> -> !block.tile<[M, F], bf16>
      %w = block.load %W2[F, C] : !block.array<1024x512xbf16> -> !block.tile<[F, C], bf16>
      %p = block.dot %h, %w contract [F] : !block.tile<[M, F], bf16>, !block.tile<[F, C], bf16>
      block.yield %p : !block.tile<[M, C], f32>
    }
    %o = block.cast %acc : !block.tile<[M, C], f32> to !block.tile<[M, C], bf16>
    block.yield %o : !block.tile<[M, C], bf16>
  }
  block.return %out : !block.array<256x512xbf16>
}
