block.program @negative_exponentials_in_nested_reduce axes(M = 10 tiled, N = 13 tiled, K = 6 tiled)
    (%S: !block.array<10x13xf32>, %W: !block.array<13x6xf32>) -> !block.array<10xf32> {
  %O = block.map [M] -> !block.array<10xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    %l = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xf32> -> !block.tile<[M, N], f32>
      %d = block.sub %s, %m : !block.tile<[M, N], f32>, !block.tile<[M], f32>
      %e = block.exp %d : !block.tile<[M, N], f32>
      %i = block.reduce K combiners [add] -> !block.tile<[M], f32> {
        %w = block.load %W[N, K] : !block.array<13x6xf32> -> !block.tile<[N, K], f32>
        %p = block.dot %e, %w contract [N] : !block.tile<[M, N], f32>, !block.tile<[N, K], f32>
        %q = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
        block.yield %q : !block.tile<[M], f32>
      }
      block.yield %i : !block.tile<[M], f32>
    }
    block.yield %l : !block.tile<[M], f32>
  }
  block.return %O : !block.array<10xf32>
}
