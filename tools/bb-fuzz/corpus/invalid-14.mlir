block.program @map_yield_lacks_axis axes(M = 4 tiled, D = 2 whole) (%x: !block.array<2xf32>) -> !block.array<2xf32> {
  %y = block.map [M] -> !block.array<2xf32> {
    %t = block.load %x[D] : !block.array<2xf32> -> !block.tile<[D], f32>
    block.yield %t : !block.tile<[D], f32>
  }
  block.return %y : !block.array<2xf32>
}
