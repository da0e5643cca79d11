block.program @map_element_type axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf16> {
  %y = block.map [M] -> !block.array<4xf16> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf16>
}
