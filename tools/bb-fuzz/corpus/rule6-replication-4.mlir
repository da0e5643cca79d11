block.program @negative_fixed_index axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %V: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %E = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %e = block.exp %v : !block.tile<[M], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e = block.load %E[3] : !block.array<10xf32> -> !block.tile<[], f32>
    %y = block.mul %x, %e : !block.tile<[M, N], f32>, !block.tile<[], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
