block.program @shift_out_of_reduce axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %W: !block.array<9x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %d = block.sub %x, %u : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %p = block.dot %d, %w contract [K] : !block.tile<[M, K], f32>, !block.tile<[K, N], f32>
      block.yield %p : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
