block.program @declared_discardable_attr axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    %u = block.add %t, %t {note = "hello"} : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %u : !block.tile<[M], f32>
  }
  block.return
}
