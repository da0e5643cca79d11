block.program @negative_no_shared_array axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<10x7xf32>)
    -> (!block.array<10x7xf32>, !block.array<10x7xf32>) {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %y = block.load %Y[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.neg %y : !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %A, %B : !block.array<10x7xf32>, !block.array<10x7xf32>
}
