block.program @dot_no_contraction axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [N] 1.0 : f32
    %c = block.dot %a, %b contract [] : !block.tile<[M], f32>, !block.tile<[N], f32>
    block.yield
  }
  block.return
}
