block.program @axis_block_zero axes(M = 64 tiled block 0) () {
  block.return
}
