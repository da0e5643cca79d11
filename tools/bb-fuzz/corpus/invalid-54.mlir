block.program @dot_missing_lhs axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [N, D] 1.0 : f32
    %c = block.dot %a, %b contract [D] : !block.tile<[M], f32>, !block.tile<[N, D], f32>
    block.yield
  }
  block.return
}
