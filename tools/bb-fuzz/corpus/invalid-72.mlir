block.program @select_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %c = block.constant [M] 1 : i1
    %a = block.constant [M] 1.0 : f32
    %r = block.select %c, %x, %a : !block.tile<[M], i1>, !block.array<4xf32>, !block.tile<[M], f32>
    block.yield
  }
  block.return
}
