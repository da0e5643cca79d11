block.program @broadcast_array axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<8xf32>) {
  block.map [M, N] {
    %b = block.broadcast %x : !block.array<8xf32> to !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}
