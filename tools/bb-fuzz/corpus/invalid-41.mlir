block.program @load_fixed_index axes(M = 4 tiled) (%x: !block.array<4x2xf32>) {
  block.map [M] {
    %t = block.load %x[M, 2] : !block.array<4x2xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
