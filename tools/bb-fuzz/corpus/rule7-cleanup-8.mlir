block.program @drop_dead_region_state axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %A = block.map [M] -> !block.array<10xf32> {
    %z = block.constant [M] 0.0 : f32
    %ninf = block.constant [M] 0xFF800000 : f32
    %c, %s, %m = block.reduce K init(%z, %z, %ninf : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %t = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      %u = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      block.yield %t, %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    } combine {
    ^bb0(%c0: !block.tile<[M], f32>, %s0: !block.tile<[M], f32>, %m0: !block.tile<[M], f32>, %c1: !block.tile<[M], f32>, %s1: !block.tile<[M], f32>, %m1: !block.tile<[M], f32>):
      %c2 = block.add %c0, %c1 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %s2 = block.add %s0, %c2 : !block.tile<[M], f32>, !block.tile<[M], f32>
      %m2 = block.max %m0, %m1 : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c2, %s2, %m2 : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %A : !block.array<10xf32>
}
