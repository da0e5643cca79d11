block.program @diamond_fuses_through_c axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %a = block.exp %x : !block.tile<[M, N], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %C = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.neg %a : !block.tile<[M, N], f32>
    block.yield %c : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.load %C[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.add %a, %c : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}
