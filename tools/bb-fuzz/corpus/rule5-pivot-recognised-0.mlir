block.program @pivot_of_squares axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %s1 = block.mul %x, %x : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t1 = block.tanh %s1 : !block.tile<[M, J], f32>
    %s2 = block.mul %t1, %t1 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t2 = block.tanh %s2 : !block.tile<[M, J], f32>
    %s3 = block.mul %t2, %t2 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t3 = block.tanh %s3 : !block.tile<[M, J], f32>
    %s4 = block.mul %t3, %t3 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t4 = block.tanh %s4 : !block.tile<[M, J], f32>
    %s5 = block.mul %t4, %t4 : !block.tile<[M, J], f32>, !block.tile<[M, J], f32>
    %t5 = block.tanh %s5 : !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %t5, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    block.yield %y : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
