block.program @constant_in_foreign_region axes(M = 4 tiled) () -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %t = scf.execute_region -> !block.tile<[M], f32> {
      %c = block.constant [M] 0.0 : f32
      scf.yield %c : !block.tile<[M], f32>
    }
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}
