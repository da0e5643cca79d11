func.func @unknown_type(%a: !block.buffer<4xf32>)
