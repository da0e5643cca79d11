block.program @exp_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %b = block.exp %x : !block.array<4xf32>
    block.yield
  }
  block.return
}
