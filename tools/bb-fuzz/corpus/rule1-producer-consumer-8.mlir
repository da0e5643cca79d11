block.program @negative_slice axes(M = 10 tiled, D = 8 whole, E = 4 whole)
    (%X: !block.array<10x8xf32>) -> !block.array<10x4xf32> {
  %P = block.map [M] -> !block.array<10x8xf32> {
    %x = block.load %X[M, D] : !block.array<10x8xf32> -> !block.tile<[M, D], f32>
    %p = block.exp %x : !block.tile<[M, D], f32>
    block.yield %p : !block.tile<[M, D], f32>
  }
  %B = block.map [M] -> !block.array<10x4xf32> {
    %p = block.load %P[M, E + 2] : !block.array<10x8xf32> -> !block.tile<[M, E], f32>
    %b = block.neg %p : !block.tile<[M, E], f32>
    block.yield %b : !block.tile<[M, E], f32>
  }
  block.return %B : !block.array<10x4xf32>
}
