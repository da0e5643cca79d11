block.program @select_condition axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 1 : i32
    %a = block.constant [M] 1.0 : f32
    %r = block.select %c, %a, %a : !block.tile<[M], i32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield
  }
  block.return
}
