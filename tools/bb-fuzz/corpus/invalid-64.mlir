block.program @mul_result_type axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [N] 1.0 : f32
    %c = "block.mul"(%a, %b) : (!block.tile<[M], f32>, !block.tile<[N], f32>) -> !block.tile<[N, M], f32>
    block.yield
  }
  block.return
}
