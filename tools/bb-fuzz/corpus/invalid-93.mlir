block.program @iota_rank axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.iota M : !block.tile<[M, N], index>
    block.yield
  }
  block.return
}
