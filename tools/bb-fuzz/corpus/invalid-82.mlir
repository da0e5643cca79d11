block.program @cast_float_to_index axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : bf16
    %b = block.cast %a : !block.tile<[M], bf16> to !block.tile<[M], index>
    block.yield
  }
  block.return
}
