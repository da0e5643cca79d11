block.program @exp_integer axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1 : i32
    %b = block.exp %a : !block.tile<[M], i32>
    block.yield
  }
  block.return
}
