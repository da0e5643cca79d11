block.program @axis_zero_extent axes(M = 0 tiled) () {
  block.return
}
