block.program @negative_bf16_maximum axes(M = 10 tiled, N = 13 tiled, D = 5 whole)
    (%S: !block.array<10x13xbf16>, %V: !block.array<13x5xbf16>) -> !block.array<10x5xf32> {
  %O = block.map [M] -> !block.array<10x5xf32> {
    %m = block.reduce N combiners [max] -> !block.tile<[M], bf16> {
      %s = block.load %S[M, N] : !block.array<10x13xbf16> -> !block.tile<[M, N], bf16>
      %t = block.tile_reduce max %s over [N] : !block.tile<[M, N], bf16>
      block.yield %t : !block.tile<[M], bf16>
    }
    %acc = block.reduce N combiners [add] -> !block.tile<[M, D], f32> {
      %s = block.load %S[M, N] : !block.array<10x13xbf16> -> !block.tile<[M, N], bf16>
      %d = block.sub %s, %m : !block.tile<[M, N], bf16>, !block.tile<[M], bf16>
      %e = block.exp %d : !block.tile<[M, N], bf16>
      %v = block.load %V[N, D] : !block.array<13x5xbf16> -> !block.tile<[N, D], bf16>
      %pv = block.dot %e, %v contract [N] : !block.tile<[M, N], bf16>, !block.tile<[N, D], bf16>
      block.yield %pv : !block.tile<[M, D], f32>
    }
    block.yield %acc : !block.tile<[M, D], f32>
  }
  block.return %O : !block.array<10x5xf32>
}
