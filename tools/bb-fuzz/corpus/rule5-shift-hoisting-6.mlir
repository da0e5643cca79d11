block.program @layernorm_shape axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %G: !block.array<9xf32>, %B: !block.array<9xf32>,
     %W: !block.array<9x7xf32>, %MU: !block.array<10xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %mu = block.load %MU[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %g = block.load %G[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %b = block.load %B[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %d = block.sub %x, %mu : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %n = block.mul %d, %r : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %ng = block.mul %n, %g : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %xn = block.add %ng, %b : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %p = block.dot %xn, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %p : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
