block.program @axis_block_no_size axes(M = 64 tiled block) () {
  block.return
}
