block.program @predicate_unknown axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], index>
    %c = block.compare less %a, %a : !block.tile<[M], index>, !block.tile<[M], index>
    block.yield
  }
  block.return
}
