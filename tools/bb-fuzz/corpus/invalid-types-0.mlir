func.func @array_zero_extent(%a: !block.array<0x4xf32>)
