block.program @negative_nonlinear_combiners axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>, %S: !block.array<10xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %s = block.load %S[M] : !block.array<10xf32> -> !block.tile<[M], f32>
    %a, %b = block.reduce K combiners [max, mul] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %u = block.tile_reduce max %x over [K] : !block.tile<[M, K], f32>
      %us = block.mul %u, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
      %us2 = block.mul %u, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %us, %us2 : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %y = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
