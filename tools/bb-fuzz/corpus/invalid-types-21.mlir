block.program @axis_block_negative axes(M = 64 tiled block -16) () {
  block.return
}
