block.program @constant_not_a_number axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] #ml_program.extern : f32
    block.yield
  }
  block.return
}
