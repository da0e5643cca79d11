block.program @compare_unordered_integers axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], index>
    %c = block.compare ugt %a, %a : !block.tile<[M], index>, !block.tile<[M], index>
    block.yield
  }
  block.return
}
