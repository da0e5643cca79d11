block.program @reduce_body_argument axes(M = 4 tiled, N = 8 tiled) () -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
    ^bb0(%i: !block.tile<[M], f32>):
      block.yield %i : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}
