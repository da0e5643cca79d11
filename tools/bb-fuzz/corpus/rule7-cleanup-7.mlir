block.program @merge_duplicate_states axes(M = 10 tiled, K = 9 tiled)
    (%X: !block.array<10x9xf32>) -> !block.array<10xf32> {
  %Y = block.map [M] -> !block.array<10xf32> {
    %a, %b, %c = block.reduce K combiners [add, add, max] -> !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32> {
      %x = block.load %X[M, K] : !block.array<10x9xf32> -> !block.tile<[M, K], f32>
      %s = block.tile_reduce add %x over [K] : !block.tile<[M, K], f32>
      block.yield %s, %s, %s : !block.tile<[M], f32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    %ab = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    %y = block.add %ab, %c : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %y : !block.tile<[M], f32>
  }
  block.return %Y : !block.array<10xf32>
}
