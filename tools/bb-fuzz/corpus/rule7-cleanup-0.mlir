block.program @merge_duplicates axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x1 = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %x2 = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e1 = block.exp %x1 : !block.tile<[M, N], f32>
    %e2 = block.exp %x2 : !block.tile<[M, N], f32>
    %s = block.add %e1, %e2 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %x1 = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %e1 = block.exp %x1 : !block.tile<[M, N], f32>
    %s = block.add %e1, %e1 : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  %C = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.load %B[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %p = block.mul %a, %b : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %p : !block.tile<[M, N], f32>
  }
  block.return %C : !block.array<10x7xf32>
}
