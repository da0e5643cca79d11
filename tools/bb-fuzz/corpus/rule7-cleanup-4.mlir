block.program @drop_dead_results axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %A, %B = block.map [M] -> !block.array<10xf32>, !block.array<10xf32> {
    %s, %m = block.reduce K combiners [add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %n = block.neg %x : !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %u = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      block.yield %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %e = block.exp %s : !block.tile<[M], f32>
    block.yield %s, %e : !block.tile<[M], f32>, !block.tile<[M], f32>
  }
  %C = block.map [M] -> !block.array<10xf32> {
    %b = block.load %B[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    block.yield %b : !block.tile<[M], f32>
  }
  block.return %A : !block.array<10xf32>
}
