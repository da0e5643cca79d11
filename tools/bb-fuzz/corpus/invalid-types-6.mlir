func.func @array_element_unsigned(%a: !block.array<4xui8>)
