block.program @tile_reduce_missing_axis axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %r = block.tile_reduce add %a over [N] : !block.tile<[M], f32>
    block.yield
  }
  block.return
}
