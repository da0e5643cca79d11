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
        %gf = block.cast %gg : !block.tile<[D], bf16> to !block.tile<[D], f32>
        %w1f = block.cast %w1 : !block.tile<[D, F], bf16> to !block.tile<[D, F], f32>
        %w1g = block.mul %w1f, %gf : !block.tile<[D, F], f32>, !block.tile<[D], f32>
        %w1b = block.cast %w1g : !block.tile<[D, F], f32> to !block.tile<[D, F], bf16>
        %w3f = block.cast %w3 : !block.tile<[D, F], bf16> to !block.tile<[D, F], f32>
        %w3g = block.mul %w3f, %gf : !block.tile<[D, F], f32>, !block.tile<[D], f32>
        %w3b = block.cast %w3g : !block.tile<[D, F], f32> to !block.tile<[D, F], bf16>
        %p1 = block.dot %x, %w1b contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, F], bf16>
        %p3 = block.dot %x, %w3b contract [D] : !block.tile<[M, D], bf16>, !block.tile<[D, F], bf16>
        %xf = block.cast %x : !block.tile<[M, D], bf16> to !block.tile<[M, D], f32>
        %xx = block.mul %xf, %xf : !block.tile<[M, D], f32>, !block.tile<[M, D], f32>
        %s = block.tile_reduce add %xx over [D] : !block.tile<[M, D], f32>
        block.yield %p1, %p3, %s : !block.tile<[M, F], f32>, !block.tile<[M, F], f32>, !block.tile<[M], f32>
      }
      %d = block.constant [] 5.120000e+02 : f32
      %eps = block.constant [] 9.99999974E-6 : f32
      %ms = block.div %ss, %d : !block.tile<[M], f32>, !block.tile<[], f32>
      %mse = block.add %ms, %eps : !block.tile<[M], f32>, !block.tile<[], f32>
      %r = block.rsqrt %mse : !block.tile<[M], f32>
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
