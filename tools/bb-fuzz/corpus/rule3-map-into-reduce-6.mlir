block.program @negative_producer_names_consumer_axis axes(M = 10 tiled, K = 9 tiled)
    (%A: !block.array<10x9xf32>, %X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %P = block.map [K] -> !block.array<9xf32> {
    %a = block.load %A[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
    %p = block.tile_reduce add %a over [M] : !block.tile<[M, K], f32>
    block.yield %p : !block.tile<[K], f32>
  }
  %R = block.map [M] -> !block.array<10xf32> {
    %s = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %p = block.load %P[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %y = block.mul %x, %p : !block.tile<[M, K], f32>, !block.tile<[K], f32>
      %t = block.tile_reduce add %y over [K] : !block.tile<[M, K], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %R : !block.array<10xf32>
}
