block.program @layernorm_matmul axes(M = 512 tiled, K = 768 tiled, N = 1024 tiled)
    (%X: !block.array<512x768xf32>, %gamma: !block.array<768xf32>,
     %beta: !block.array<768xf32>, %W: !block.array<768x1024xf32>,
     %bias: !block.array<1024xf32>) -> !block.array<512x1024xf32> {
  %Y = block.map [M, N] -> !block.array<512x1024xf32> {
    %acc, %s1, %s2, %cw, %bw = block.reduce K combiners [add, add, add, add, add] -> !block.tile<[M, N], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[N], f32>, !block.tile<[N], f32> {
      %x = block.load %X[M, K] : !block.array<512x768xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<768x1024xf32> -> !block.tile<[K, N], f32>
      %g = block.load %gamma[K] : !block.array<768xf32> -> !block.tile<[K], f32>
      %b = block.load %beta[K] : !block.array<768xf32> -> !block.tile<[K], f32>
      %wg = block.mul %w, %g : !block.tile<[K, N], f32>, !block.tile<[K], f32>
      %p = block.dot %x, %wg contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      %r1 = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %xx = block.mul %x, %x : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %r2 = block.tile_reduce add %xx over [K] : !block.tile<[M, K], f32>
      %c = block.tile_reduce add %wg over [K] : !block.tile<[K, N], f32>
      %bwj = block.dot %b, %w contract [K] : !block.tile<[K], f32>, !block.tile<[K, N], f32>
      block.yield %p, %r1, %r2, %c, %bwj : !block.tile<[M, N], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[N], f32>, !block.tile<[N], f32>
    }
    %k = block.constant [] 7.680000e+02 : f32
    %eps = block.constant [] 9.99999974E-6 : f32
    %mu = block.div %s1, %k : !block.tile<[M], f32>, !block.tile<[], f32>
    %ex2 = block.div %s2, %k : !block.tile<[M], f32>, !block.tile<[], f32>
    %mu2 = block.mul %mu, %mu : !block.tile<[M], f32>, !block.tile<[M], f32>
    %var = block.sub %ex2, %mu2 : !block.tile<[M], f32>, !block.tile<[M], f32>
    %ve = block.add %var, %eps : !block.tile<[M], f32>, !block.tile<[], f32>
    %rstd = block.rsqrt %ve : !block.tile<[M], f32>
    %shift = block.mul %mu, %cw : !block.tile<[M], f32>, !block.tile<[N], f32>
    %centred = block.sub %acc, %shift : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    %scaled = block.mul %centred, %rstd : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    %bias_t = block.load %bias[N] : !block.array<1024xf32> -> !block.tile<[N], f32>
    %b2 = block.add %bw, %bias_t : !block.tile<[N], f32>, !block.tile<[N], f32>
    %y = block.add %scaled, %b2 : !block.tile<[M, N], f32>, !block.tile<[N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<512x1024xf32>
}
