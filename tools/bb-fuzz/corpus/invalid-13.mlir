block.program @map_yield_count axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return
}
