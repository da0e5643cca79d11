block.program @axis_table_duplicate axes(M = 4 tiled, N = 8 tiled, N = 16 whole) () {
  block.return
}
