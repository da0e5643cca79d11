block.program @axis_no_equals axes(M 64 tiled) () {
  block.return
}
