block.program @iota_axis axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.iota M : !block.tile<[N], index>
    block.yield
  }
  block.return
}
