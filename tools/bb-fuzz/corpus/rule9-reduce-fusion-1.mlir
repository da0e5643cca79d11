block.program @side_by_side axes(M = 10 tiled, N = 13 tiled)
    (%X: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %e = block.exp %s : !block.tile<[M], f32>
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %x = block.load %X[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %x over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %y = block.add %e, %m : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
