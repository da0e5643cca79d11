block.program @pivots_of_computed_x axes(M = 10 tiled, N = 7 tiled, J = 6 whole)
    (%X: !block.array<10x6xf32>, %W: !block.array<6x7xf32>, %U: !block.array<10xf32>)
    -> !block.array<10x7xf32> {
  %H = block.map [M] -> !block.array<10x6xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %t = block.tanh %x : !block.tile<[M, J], f32>
    block.yield %t : !block.tile<[M, J], f32>
  }
  %Y = block.map [M, N] -> !block.array<10x7xf32> {
    %x = block.load %X[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %e = block.exp %x : !block.tile<[M, J], f32>
    %w = block.load %W[J, N] : !block.array<6x7xf32> -> !block.tile<[J, N], f32>
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %e, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %y = block.dot %d, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %z = block.load %H[M, J] : !block.array<10x6xf32> -> !block.tile<[M, J], f32>
    %dz = block.sub %z, %u : !block.tile<[M, J], f32>, !block.tile<[M], f32>
    %yz = block.dot %dz, %w contract [J] : !block.tile<[M, J], f32>, !block.tile<[J, N], f32>
    %r = block.add %y, %yz : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
    block.yield %r : !block.tile<[M, N], f32>
  }
  block.return %Y : !block.array<10x7xf32>
}
