block.program @broadcast_element_type axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [N] 1.0 : f32
    %b = block.broadcast %a : !block.tile<[N], f32> to !block.tile<[M, N], f16>
    block.yield
  }
  block.return
}
