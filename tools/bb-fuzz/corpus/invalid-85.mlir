block.program @broadcast_drops_axis axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M, N] 1.0 : f32
    %b = block.broadcast %a : !block.tile<[M, N], f32> to !block.tile<[N], f32>
    block.yield
  }
  block.return
}
