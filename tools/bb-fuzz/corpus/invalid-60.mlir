block.program @add_element_types axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [M] 1.0 : f16
    %c = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f16>
    block.yield
  }
  block.return
}
