block.program @constant_dense axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] dense<0.0> : tensor<f32>
    block.yield
  }
  block.return
}
