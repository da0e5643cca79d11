block.program @negative_squares axes(M = 10 tiled, K = 9 tiled, J = 6 whole)
    (%X: !block.array<10x9xf32>, %Z: !block.array<10x9x6xf32>, %U: !block.array<10xf32>)
    -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %m = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %d = block.sub %x, %m : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %dd = block.dot %d, %d contract [K] : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %z = block.load %Z[M, K, J] : !block.array<10x9x6xf32> -> !block.tile<[M, K, J], f32>
      %e = block.sub %z, %u : !block.tile<[M, K, J], f32>, !block.tile<[M], f32>
      %ee = block.dot %e, %e contract [K, J] : !block.tile<[M, K, J], f32>, !block.tile<[M, K, J], f32>
      block.yield %dd, %ee : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
