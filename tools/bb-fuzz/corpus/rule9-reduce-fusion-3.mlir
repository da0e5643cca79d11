block.program @online_with_free_term axes(M = 10 tiled, N = 13 tiled)
    (%S: !block.array<10x13xf32>, %W: !block.array<13xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l, %c = block.reduce N combiners [add, add] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %w = block.load %W[N] : !block.array<13xf32> -> !block.tile<[N], f32>
      %ew = block.mul %e, %w : !block.tile<[M, N], f32>, !block.tile<[N], f32>
      %n = block.neg %ew : !block.tile<[M, N], f32>
      %t = block.tile_reduce add %n over [N] : !block.tile<[M, N], f32>
      %u = block.tile_reduce add %s over [N] : !block.tile<[M, N], f32>
      block.yield %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %l, %c : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
