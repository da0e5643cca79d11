block.program @axis_whole_block axes(D = 64 whole block 16) () {
  block.return
}
