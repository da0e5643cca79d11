block.program @layernorm_matmul axes(M = 512 tiled, K = 768 tiled, N = 1024 tiled)
    (%X: !block.array<512x768xf32>, %gamma: !block.array<768xf32>,
     %beta: !block.array<768xf32>, %W: !block.array<768x1024xf32>,
     %bias: !block.array<1024xf32>) -> !block.array<512x1024xf32> {
  %mu = block.map [M] -> !block.array<512xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<512x768xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %k = block.constant [] 7.680000e+02 : f32
    %m = block.div %s, %k : !block.tile<[M], f32>, !block.tile<[], f32>
    block.yield %m : !block.tile<[M], f32>
  }
  %var = block.map [M] -> !block.array<512xf32> {
    %m = block.load %mu[M] : !block.array<512xf32> -> !block.tile<[M], f32>
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<512x768xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %m : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %d2 = block.mul %d, %d : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %t = block.tile_reduce add %d2 over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %k = block.constant [] 7.680000e+02 : f32
    %v = block.div %s, %k : !block.tile<[M], f32>, !block.tile<[], f32>
    block.yield %v : !block.tile<[M], f32>
  }
  %Xn = block.map [M, K] -> !block.array<512x768xf32> {
    %x = block.load %X[M, K] : !block.array<512x768xf32> -> !block.tile<[M, K], f32>
    %m = block.load %mu[M] : !block.array<512xf32> -> !block.tile<[M], f32>
    %v = block.load %var[M] : !block.array<512xf32> -> !block.tile<[M], f32>
    %g = block.load %gamma[K] : !block.array<768xf32> -> !block.tile<[K], f32>
    %b = block.load %beta[K] : !block.array<768xf32> -> !block.tile<[K], f32>
    %eps = block.constant [] 9.99999974E-6 : f32
    %ve = block.add %v, %eps : !block.tile<[M], f32>, !block.tile<[], f32>
    %r = block.rsqrt %ve : !block.tile<[M], f32>
    %d = block.sub %x, %m : !block.tile<[M, K], f32>, !block.tile<[M], f32>
    %n = block.mul %d, %r : !block.tile<[M, K], f32>, !block.tile<[M], f32>
    %ng = block.mul %n, %g : !block.tile<[M, K], f32>, !block.tile<[K], f32>
    %y = block.add %ng, %b : !block.tile<[M, K], f32>, !block.tile<[K], f32>
    block.yield %y : !block.tile<[M, K], f32>
  }
  %Y = block.map [M, N] -> !block.array<512x1024xf32> {
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %xn = block.load %Xn[M, K] : !block.array<512x768xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<768x1024xf32> -> !block.tile<[K, N], f32>
      %p = block.dot %xn, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %p : !block.tile<[M, N], f32>
    }
    %b = block.load %bias[N] : !block.array<1024xf32> -> !block.tile<[N], f32>
    %y = block.add %acc, %b : !block.tile<[M, N], f32>, !block.tile<[N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<512x1024xf32>
}
