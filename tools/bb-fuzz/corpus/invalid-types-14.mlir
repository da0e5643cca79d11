func.func @tile_no_comma(%t: !block.tile<[M] f32>)
