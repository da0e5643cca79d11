func.func @tile_of_tile(%t: !block.tile<[N], !block.tile<[M], f32>>)
