block.program @wrong_tier axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %e = block.exp %x : !block.array<4xf32>
    block.yield %e : !block.array<4xf32>
  }
  block.return %y : !block.array<4xf32>
}
