block.program @reduce_body_terminator axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      llvm.unreachable
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}
