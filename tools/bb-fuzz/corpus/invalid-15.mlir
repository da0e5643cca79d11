block.program @map_yield_tiled_axis axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4x8xf32> {
  %y = block.map [M] -> !block.array<4x8xf32> {
    %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
    block.yield %t : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<4x8xf32>
}
