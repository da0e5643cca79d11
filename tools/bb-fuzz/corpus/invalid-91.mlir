block.program @constant_empty_axis axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [""] 0.0 : f32
    block.yield
  }
  block.return
}
