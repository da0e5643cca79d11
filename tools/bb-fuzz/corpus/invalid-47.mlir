block.program @load_result_axes axes(M = 4 tiled, D = 2 whole) (%x: !block.array<4x2xf32>) {
  block.map [M] {
    %t = block.load %x[M, D] : !block.array<4x2xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
