block.program @distribute axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%A: !block.array<10x6xf32>, %B: !block.array<6xf32>, %W: !block.array<6x7xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %a = block.load %A[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %b = block.load %B[J] : !block.array<6xf32> -> !block.tile<[J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %s = block.add %b, %a : !block.tile<[J], f32>, !block.tile<[M, J], f32>
    %y1 = block.dot %s, %w contract [J] : !block.tile<[J, M], f32>, !block.tile<[J, N], f32>
    %t = block.sub %a, %b : !block.tile<[M, J], f32>, !block.tile<[J], f32>
    %y2 = block.dot %w, %t contract [J] : !block.tile<[J, N], f32>, !block.tile<[M, J], f32>
    %y = block.add %y1, %y2 : !block.tile<[M, N], f32>, !block.tile<[N, M], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
