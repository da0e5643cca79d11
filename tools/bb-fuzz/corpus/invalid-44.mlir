block.program @load_slice_past_end axes(M = 4 tiled) (%x: !block.array<8xf32>) {
  block.map [M] {
    %t = block.load %x[M + 6] : !block.array<8xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
