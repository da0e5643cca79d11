block.program @neg_result_type axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %b = "block.neg"(%a) : (!block.tile<[M], f32>) -> !block.tile<[M], f16>
    block.yield
  }
  block.return
}
