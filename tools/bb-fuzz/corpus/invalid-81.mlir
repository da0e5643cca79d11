block.program @cast_index_to_float axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], index>
    %b = block.cast %a : !block.tile<[M], index> to !block.tile<[M], f32>
    block.yield
  }
  block.return
}
