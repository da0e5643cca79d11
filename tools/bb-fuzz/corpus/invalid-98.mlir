block.program @declared_array_attr axes(M = 4 tiled) () {
  block.map [K] {
    block.yield
  }
  block.return
}
