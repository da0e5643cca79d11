block.program @inline_whole_reduce axes(M = 10 tiled, D = 6 whole)
    (%X: !block.array<10x6xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s, %m = block.reduce D combiners [add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, D] : !block.array<10x6xf32> -> !block.tile<[M, D], f32>
      %t = block.tile_reduce add %x over [D] : !block.tile<[M, D], f32>
      %u = block.tile_reduce max %x over [D] : !block.tile<[M, D], f32>
      block.yield %t, %u : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %r = block.sub %s, %m : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
