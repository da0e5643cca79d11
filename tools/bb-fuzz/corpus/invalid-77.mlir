block.program @tile_reduce_axis_twice axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M] {
    %a = block.constant [M, N] 1.0 : f32
    %r = block.tile_reduce max %a over [N, N] : !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}
