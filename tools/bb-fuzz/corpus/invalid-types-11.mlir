func.func @tile_element_f8(%t: !block.tile<[M], f8E4M3FN>)
