func.func @array_element_index(%a: !block.array<4xindex>)
