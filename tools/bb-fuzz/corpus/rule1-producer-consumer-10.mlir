block.program @negative_other_block axes(M = 8 tiled, N = 8 tiled)
    (%X: !block.array<8x8xf32>) -> !block.array<8x8xf32> {
  %P = block.map [M, N] -> !block.array<8x8xf32> {
    %x = block.load %X[M, N] : !block.array<8x8xf32> -> !block.tile<[M, N], f32>
    %p = block.exp %x : !block.tile<[M, N], f32>
    block.yield %p : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<8x8xf32> {
    %p = block.load %P[N, M] : !block.array<8x8xf32> -> !block.tile<[M, N], f32>
    %b = block.neg %p : !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<8x8xf32>
}
