block.program @whole_inside_block axes(M = 8 tiled block 8, N = 16 tiled block 4)
    (%x: !block.array<8x16xf32>) -> !block.array<8xf32> {
  %y = block.map [M] -> !block.array<8xf32> {
    %whole = block.load %x[M, N] : !block.array<8x16xf32> -> !block.tile<[M, N], f32>
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<8x16xf32> -> !block.tile<[M, N], f32>
      %p = block.mul %t, %whole : !block.tile<[M, N], f32>, !block.tile<[M, N], f32>
      %s = block.tile_reduce add %p over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<8xf32>
}
