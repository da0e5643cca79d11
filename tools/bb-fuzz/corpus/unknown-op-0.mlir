block.program @unknown_op axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    %f = block.frobnicate %t : !block.tile<[M], f32>
    block.yield %f : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}
