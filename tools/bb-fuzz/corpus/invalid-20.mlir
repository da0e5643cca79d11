block.program @map_in_map axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M] {
    block.map [N] {
      block.yield
    }
    block.yield
  }
  block.return
}
