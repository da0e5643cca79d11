block.program @tile_reduce_no_axis axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %r = block.tile_reduce add %a over [] : !block.tile<[M], f32>
    block.yield
  }
  block.return
}
