block.program @out_of_reduce axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xf32>, %R: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %r = block.load %R[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %xr = block.mul %x, %r : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %d = block.dot %xr, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %d : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
