block.program @cast_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %b = block.cast %x : !block.array<4xf32> to !block.tile<[M], f16>
    block.yield
  }
  block.return
}
