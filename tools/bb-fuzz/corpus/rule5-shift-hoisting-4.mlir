block.program @shifted_squares axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %U: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %c = block.constant [] 2.500000e-01 : f32
    %v, %q = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %u : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %dd = block.dot %d, %d contract [K] : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %e = block.sub %x, %c : !block.tile<[M, K], f32>, !block.tile<[], f32>
      %ee = block.mul %e, %e : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %r = block.tile_reduce add %ee over [K] : !block.tile<[M, K], f32>
      block.yield %dd, %r : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %v, %q : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
