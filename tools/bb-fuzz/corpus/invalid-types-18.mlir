block.program @axis_negative_extent axes(M = -4 tiled) () {
  block.return
}
