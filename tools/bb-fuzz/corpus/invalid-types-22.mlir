block.program @axis_bad_kind axes(M = 64 tiles) () {
  block.return
}
