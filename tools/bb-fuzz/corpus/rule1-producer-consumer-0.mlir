block.program @chain axes(M = 10 tiled, N = 7 tiled)
    (%X: !block.array<10x7xf32>, %Y: !block.array<10x7xf32>) -> !block.array<10x7xf32> {
  %A = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %c = block.constant [] 1.0 : f32
    %a = block.add %x, %c : !block.tile<[M, N], f32>, !block.tile<[], f32>
    block.yield %a : !block.tile<[M, N], f32>
  }
  %B = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %y = block.load %Y[M, N] : !block.array<10x7xf32> -> !block.tile<[M, N], f32>
    %b = block.mul %a, %y : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %b : !block.tile<[M, N], f32>
  }
  block.return %B : !block.array<10x7xf32>
}
