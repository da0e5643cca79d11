block.program @map_result_tile axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  %y = block.map [M] -> !block.tile<[M], f32> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return
}
