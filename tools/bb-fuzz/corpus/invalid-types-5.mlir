func.func @array_element_tensor(%a: !block.array<4xtensor<4xf32>>)
