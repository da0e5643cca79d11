block.program @negative_nonadd_combiners axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %U: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %u = block.load %U[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [max, mul] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %u : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %dd = block.dot %d, %d contract [K] : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %p = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %s = block.add %p, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %s, %dd : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
