func.func @combiner_attr_unknown() attributes {kind = #block<combiner avg>}
