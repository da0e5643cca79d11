block.program @dot_array_generic axes(M = 4 tiled, N = 8 tiled, D = 2 whole) (%x: !block.array<8x2xf32>) {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : f32
    %c = "block.dot"(%a, %x) <{contract = ["D"]}> : (!block.tile<[M, D], f32>, !block.array<8x2xf32>) -> !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}
