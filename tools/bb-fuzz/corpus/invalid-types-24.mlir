block.program @axis_no_extent axes(M = tiled) () {
  block.return
}
