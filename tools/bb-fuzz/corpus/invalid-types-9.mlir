func.func @tile_duplicate_axis(%t: !block.tile<[M, N, M], f32>)
