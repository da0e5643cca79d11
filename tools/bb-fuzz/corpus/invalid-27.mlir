block.program @reduce_init_count axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %r = block.reduce N -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      %c = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}
