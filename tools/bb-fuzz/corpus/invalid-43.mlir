block.program @load_extent axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4xf32>) {
  block.map [N] {
    %t = block.load %x[N] : !block.array<4xf32> -> !block.tile<[N], f32>
    block.yield
  }
  block.return
}
