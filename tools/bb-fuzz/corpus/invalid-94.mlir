block.program @iota_element_type axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], f32>
    block.yield
  }
  block.return
}
