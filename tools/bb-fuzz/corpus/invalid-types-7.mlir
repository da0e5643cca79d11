func.func @array_unterminated(%a: !block.array<4xf32)
