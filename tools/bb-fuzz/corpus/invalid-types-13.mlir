func.func @tile_no_brackets(%t: !block.tile<M, f32>)
