block.program @recompute_to_remove_producer axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %m: !block.array<10xf32>)
    -> (!block.array<10xf32>, !block.array<10xf32>) {
  %E = block.map [M, K] -> !block.array<10x9xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %v = block.load %m[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %d = block.sub %x, %v : !block.tile<[M, K], f32>, !block.tile<[M], f32>
    %e = block.exp %d : !block.tile<[M, K], f32>
    block.yield %e : !block.tile<[M, K], f32>
  }
  %L = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %E[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  %N = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [max] -> !block.tile<[M], f32> {
      %p = block.load %E[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce max %p over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %L, %N : !block.array<10xf32>, !block.array<10xf32>
}
