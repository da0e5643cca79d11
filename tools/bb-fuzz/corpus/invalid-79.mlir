block.program @tile_reduce_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %r = block.tile_reduce add %x over [M] : !block.array<4xf32>
    block.yield
  }
  block.return
}
