func.func @axis_attr_zero_extent() attributes {axis = #block.axis<K = 0 tiled>}
