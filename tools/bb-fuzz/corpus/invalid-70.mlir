block.program @select_element_types axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 1 : i1
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [] 0.0 : f16
    %r = block.select %c, %a, %b : !block.tile<[M], i1>, !block.tile<[M], f32>, !block.tile<[], f16>
    block.yield
  }
  block.return
}
