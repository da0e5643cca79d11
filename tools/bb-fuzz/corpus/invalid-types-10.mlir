func.func @tile_empty_axis(%t: !block.tile<[M, ""], f32>)
