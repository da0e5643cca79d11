func.func @axis_attr_no_kind() attributes {axis = #block.axis<K = 8 block 4>}
