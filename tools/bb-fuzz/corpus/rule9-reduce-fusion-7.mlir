block.program @negative_m_as_factor axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %p = block.mul %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %t = block.tile_reduce add %p over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
