block.program @declared_result axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %t = block.load %x[K] : !block.array<4xf32> -> !block.tile<[K], f32>
    block.yield
  }
  block.return
}
