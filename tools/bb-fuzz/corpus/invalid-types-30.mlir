block.program @combiner_unknown_tile_reduce axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) {
  block.map [M] {
    %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
    %s = block.tile_reduce sum %t over [N] : !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}
