block.program @dot_contract_twice axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : f32
    %b = block.constant [N, D] 1.0 : f32
    %c = block.dot %a, %b contract [D, D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
    block.yield
  }
  block.return
}
