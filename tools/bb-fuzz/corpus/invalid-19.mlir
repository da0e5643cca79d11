block.program @map_yield_array axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    block.yield %x : !block.array<4xf32>
  }
  block.return %y : !block.array<4xf32>
}
