block.program @negative_fixed_index axes(M = 10 tiled, D = 8 whole)
    (%X: !block.array<10x8xf32>) -> !block.array<10xf32> {
  %P = block.map [M] -> !block.array<10x8xf32> {
    %x = block.load %X[M, D] : !block.array<10x8xf32> -> !block.tile<[M, D], f32>
    %p = block.exp %x : !block.tile<[M, D], f32>
    block.yield %p : !block.tile<[M, D], f32>
  }
  %B = block.map [M] -> !block.array<10xf32> {
    %p = block.load %P[M, 3] : !block.array<10x8xf32> -> !block.tile<[M], f32>
    %b = block.neg %p : !block.tile<[M], f32>
    block.yield %b : !block.tile<[M], f32>
  }
  block.return %B : !block.array<10xf32>
}
