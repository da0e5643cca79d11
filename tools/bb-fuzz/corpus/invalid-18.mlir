block.program @map_extent axes(M = 4 tiled, D = 2 whole) (%x: !block.array<4x2xf32>) -> !block.array<4x3xf32> {
  %y = block.map [M] -> !block.array<4x3xf32> {
    %t = block.load %x[M, D] : !block.array<4x2xf32> -> !block.tile<[M, D], f32>
    block.yield %t : !block.tile<[M, D], f32>
  }
  block.return %y : !block.array<4x3xf32>
}
