block.program @compare_element_types axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.iota M : !block.tile<[M], index>
    %b = block.iota N : !block.tile<[N], i32>
    %r = block.compare ge %a, %b : !block.tile<[M], index>, !block.tile<[N], i32>
    block.yield
  }
  block.return
}
