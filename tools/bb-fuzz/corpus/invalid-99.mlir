block.program @declared_empty_map_axis axes(M = 4 tiled) () {
  block.map [""] {
    block.yield
  }
  block.return
}
