block.program @compare_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %r = block.compare lt %a, %x : !block.tile<[M], f32>, !block.array<4xf32>
    block.yield
  }
  block.return
}
