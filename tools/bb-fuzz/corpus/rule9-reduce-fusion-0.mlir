block.program @online_softmax axes(M = 10 tiled, N = 13 tiled, D = 5 whole)
    (%S: !block.array<10x13xf32>, %V: !block.array<13x5xf32>) -> !block.array<10x5xf32> {
  %O = block.map [M] -> !block.array<10x5xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l, %acc = block.reduce N combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M, D], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      %v = block.load %V[N, D] : !block.array<13x5xf32> -> !block.tile<[N, D], f32>
      %pv = block.dot %e, %v contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, D], f32>
      block.yield %t, %pv : !block.tile<[M], f32>, !block.tile<[M, D], f32>
    }
    %o = block.div %acc, %l : !block.tile<[M, D], f32>, !block.tile<[M], f32>
    block.yield %o : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<10x5xf32>
}
