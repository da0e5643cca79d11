block.program @negative_different_axes axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %V: !block.array<10xf32>) -> !block.array<10x7xf32> {
  %S = block.map [M] -> !block.array<10xf32> {
    %v = block.load %V[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %s = block.exp %v : !block.tile<[M], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %s = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %b = block.mul %x, %s : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}
