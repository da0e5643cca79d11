block.program @negative_recompute_reads_more axes(K = 9 tiled, D = 64 whole)
    (%X: !block.array<9x64xf32>) -> (!block.array<f32>, !block.array<9xf32>) {
  %P = block.map [K] -> !block.array<9xf32> {
    %x = block.load %X[K, D] : !block.array<9x64xf32> -> !block.tile<[K, D], f32>
    %s = block.tile_reduce add %x over [D] : !block.tile<[K, D], f32>
    block.yield %s : !block.tile<[K], f32>
  }
  %R = block.map [] -> !block.array<f32> {
    %t = block.reduce K combiners [add] -> !block.tile<[], f32> {
      %p = block.load %P[K] : !block.array<9xf32> -> !block.tile<[K], f32>
      %y = block.tile_reduce add %p over [K] : !block.tile<[K], f32>
      block.yield %y : !block.tile<[], f32>
    }
    block.yield %t : !block.tile<[], f32>
  }
  block.return %R, %P : !block.array<f32>, !block.array<9xf32>
}
