block.program @load_element_type axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f16>
    block.yield
  }
  block.return
}
