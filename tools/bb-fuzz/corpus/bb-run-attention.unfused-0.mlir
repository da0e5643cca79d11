block.program @attention axes(M = 100 tiled, N = 72 tiled, D = 16 whole)
    (%Q: !block.array<100x16xf32>, %K: !block.array<72x16xf32>,
     %V: !block.array<72x16xf32>) -> !block.array<100x16xf32> {
  %S = block.map [M, N] -> !block.array<100x72xf32> {
    %q = block.load %Q[M, D] : !block.array<100x16xf32> -> !block.tile<[M, D], f32>
    %k = block.load %K[N, D] : !block.array<72x16xf32> -> !block.tile<[N, D], f32>
    %s = block.dot %q, %k contract [D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
    block.yield %s : !block.tile<[M, N], f32>
  }
  %m = block.map [M] -> !block.array<100xf32> {
    %r = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<100x72xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  %E = block.map [M, N] -> !block.array<100x72xf32> {
    %s = block.load %S[M, N] : !block.array<100x72xf32> -> !block.tile<[M, N], f32>
    %mm = block.load %m[M] : !block.array<100xf32> -> !block.tile<[M], f32>
    %d = block.sub %s, %mm : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    %e = block.exp %d : !block.tile<[M, N], f32>
    block.yield %e : !block.tile<[M, N], f32>
  }
  %l = block.map [M] -> !block.array<100xf32> {
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %e = block.load %E[M, N] : !block.array<100x72xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce add %e over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  %P = block.map [M, N] -> !block.array<100x72xf32> {
    %e = block.load %E[M, N] : !block.array<100x72xf32> -> !block.tile<[M, N], f32>
    %ll = block.load %l[M] : !block.array<100xf32> -> !block.tile<[M], f32>
    %p = block.div %e, %ll : !block.tile<[M, N], f32>, !block.tile<[M], f32>
    block.yield %p : !block.tile<[M, N], f32>
  }
  %O = block.map [M] -> !block.array<100x16xf32> {
    %r = block.reduce N combiners [add] -> !block.tile<[M, D], f32> {
      %p = block.load %P[M, N] : !block.array<100x72xf32> -> !block.tile<[M, N], f32>
      %v = block.load %V[N, D] : !block.array<72x16xf32> -> !block.tile<[N, D], f32>
      %o = block.dot %p, %v contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, D], f32>
      block.yield %o : !block.tile<[M, D], f32>
    }
    block.yield %r : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<100x16xf32>
}
