block.program @div_element_types axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1 : i32
    %b = block.constant [M] 1.0 : f32
    %c = block.div %a, %b : !block.tile<[M], i32>, !block.tile<[M], f32>
    block.yield
  }
  block.return
}
