block.program @load_slice_negative axes(M = 4 tiled) (%x: !block.array<8xf32>) {
  block.map [M] {
    %t = "block.load"(%x) <{indexAxes = ["M"], offsets = array<i64: -2>}> : (!block.array<8xf32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
