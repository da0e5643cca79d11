block.program @compare_result_type axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %r = "block.compare"(%a, %a) <{predicate = #block<predicate lt>}> : (!block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
