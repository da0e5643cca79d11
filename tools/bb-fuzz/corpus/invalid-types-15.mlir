func.func @tile_numeric_axis(%t: !block.tile<[0], f32>)
