block.program @axis_empty_name axes("" = 4 tiled) () {
  block.return
}
