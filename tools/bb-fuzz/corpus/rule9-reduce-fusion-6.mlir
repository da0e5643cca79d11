block.program @negative_different_axes axes(M = 10 tiled, N = 13 tiled, K = 9 tiled)
    (%S: !block.array<10x13xf32>, %X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %d = block.sub %x, %m : !block.tile<[M, K], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, K], f32>
      %t = block.tile_reduce add %e over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
