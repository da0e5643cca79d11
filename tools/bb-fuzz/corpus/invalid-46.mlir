block.program @load_slice_minus_one axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %t = block.load %x[M + -1] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
