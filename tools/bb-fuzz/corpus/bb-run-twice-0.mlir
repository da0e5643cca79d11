block.program @twice axes(M = 100 tiled block 32)
    (%x: !block.array<100xf32>) -> (!block.array<100xf32>, !block.array<100xf32>) {
  %y = block.map [M] -> !block.array<100xf32> {
    %t = block.load %x[M] : !block.array<100xf32> -> !block.tile<[M], f32>
    %e = block.exp %t : !block.tile<[M], f32>
    block.yield %e : !block.tile<[M], f32>
  }
  block.return %y, %y : !block.array<100xf32>, !block.array<100xf32>
}
