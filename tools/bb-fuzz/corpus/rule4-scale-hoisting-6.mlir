block.program @out_of_reduce_smaller_state axes(M = 10 tiled, N = 7 tiled, K = 9 tiled)
    (%W: !block.array<9x7xf32>, %U: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %acc = block.reduce K combiners [add] -> !block.tile<[M, N], f32> {
      %w = block.load %W[K, N] : !block.array<9x7xf32> -> !block.tile<[K, N], f32>
      %c = block.tile_reduce add %w over [K] : !block.tile<[K, N], f32>
      %t = block.mul %u, %c : !block.tile<[M], f32>, !block.tile<[N], f32>
      block.yield %t : !block.tile<[M, N], f32>
    }
    block.yield %acc : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
