func.func @array_zero_inner_extent(%a: !block.array<4x0xf32>)
