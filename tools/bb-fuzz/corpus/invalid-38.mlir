block.program @reduce_combine_load axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>, %w: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      %l = block.load %w[M] : !block.array<4xf32> -> !block.tile<[M], f32>
      %c = block.add %a, %l : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}
