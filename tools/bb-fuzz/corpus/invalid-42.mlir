block.program @load_axis_twice axes(M = 4 tiled) (%x: !block.array<4x4xf32>) {
  block.map [M] {
    %t = block.load %x[M, M] : !block.array<4x4xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}
