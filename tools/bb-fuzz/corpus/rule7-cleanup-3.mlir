block.program @negative_merge_across_iterated_axis axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %R = block.map [M] -> !block.array<10xf32> {
    %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %c = block.constant [K] 2.0 : f32
    %xc = block.mul %x, %c : !block.tile<[M, K], f32>, !block.tile<[K], f32>
    %t = block.tile_reduce add %xc over [K] : !block.tile<[M, K], f32>
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %xk = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %ck = block.constant [K] 2.0 : f32
      %sq = block.mul %xk, %xk : !block.tile<[M, K], f32>, !block.tile<[M, K], f32>
      %sqc = block.mul %sq, %ck : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %u = block.tile_reduce add %sqc over [K] : !block.tile<[M, K], f32>
      block.yield %u : !block.tile<[M], f32>
    }
    %r = block.add %t, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}
