func.func @array_dynamic_extent(%a: !block.array<?x4xf32>)
