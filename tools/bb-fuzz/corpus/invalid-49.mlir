block.program @load_tile axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 0.0 : f32
    %t = "block.load"(%c) <{indexAxes = ["M"], offsets = array<i64: -1>}> : (!block.tile<[M], f32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
