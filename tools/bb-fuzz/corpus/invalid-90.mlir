block.program @constant_element_type axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 1.0 : f8E4M3FN
    block.yield
  }
  block.return
}
