block.program @no_region axes(M = 4 tiled) (%x: !block.array<4xf32>)
