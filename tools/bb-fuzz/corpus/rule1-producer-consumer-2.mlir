block.program @two_results axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %E, %G = block.map [M, N] -> !block.array<10x7xf32>, !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.exp %x : !block.tile<[M, N], f32>
    %g = block.neg %x : !block.tile<[M, N], f32>
    block.yield %e, %g : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %e = block.load %E[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %g = block.load %G[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.div %e, %g : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}
