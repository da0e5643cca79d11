func.func @array_element_i4(%a: !block.array<4xi4>)
