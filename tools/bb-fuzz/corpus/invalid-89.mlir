block.program @constant_axis_twice axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M, M] 0.0 : f32
    block.yield
  }
  block.return
}
