// RUN: bb-opt %s -split-input-file -verify-diagnostics

// Verifier and parse errors of the block dialect's types and attributes
// (lib/Dialect/Block/IR/BlockTypes.cpp, BlockAttrs.cpp) and of the combiner
// and axis-table syntax. One case per split.

//===----------------------------------------------------------------------===//
// !block.array
//===----------------------------------------------------------------------===//

// expected-error @+1 {{array dimension 0 has extent 0; arrays have static positive extents}}
func.func @array_zero_extent(%a: !block.array<0x4xf32>)

// -----

// expected-error @+1 {{array dimension 1 has extent 0}}
func.func @array_zero_inner_extent(%a: !block.array<4x0xf32>)

// -----

// expected-error @+1 {{expected static shape}}
func.func @array_dynamic_extent(%a: !block.array<?x4xf32>)

// -----

// expected-error @+1 {{array element type 'i4' is not supported (f16, bf16, f32, f64, i1, i8, i16, i32, i64)}}
func.func @array_element_i4(%a: !block.array<4xi4>)

// -----

// Index elements are global positions; they live only in tiles.
// expected-error @+1 {{array element type 'index' is not supported}}
func.func @array_element_index(%a: !block.array<4xindex>)

// -----

// expected-error @+1 {{array element type 'tensor<4xf32>' is not supported}}
func.func @array_element_tensor(%a: !block.array<4xtensor<4xf32>>)

// -----

// expected-error @+1 {{array element type 'ui8' is not supported}}
func.func @array_element_unsigned(%a: !block.array<4xui8>)

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func @array_unterminated(%a: !block.array<4xf32)

// -----

// expected-error @+1 {{type `buffer` in dialect `block`}}
func.func @unknown_type(%a: !block.buffer<4xf32>)

//===----------------------------------------------------------------------===//
// !block.tile
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{tile names axis 'M' twice; each axis indexes one dimension}}
func.func @tile_duplicate_axis(%t: !block.tile<[M, N, M], f32>)

// -----

// expected-error @+1 {{tile axis 1 has an empty name}}
func.func @tile_empty_axis(%t: !block.tile<[M, ""], f32>)

// -----

// expected-error @+1 {{tile element type 'f8E4M3FN' is not supported (f16, bf16, f32, f64, i1, i8, i16, i32, i64, index)}}
func.func @tile_element_f8(%t: !block.tile<[M], f8E4M3FN>)

// -----

// expected-error @+1 {{tile element type '!block.tile<[M], f32>' is not supported}}
func.func @tile_of_tile(%t: !block.tile<[N], !block.tile<[M], f32>>)

// -----

// expected-error @+1 {{expected '['}}
func.func @tile_no_brackets(%t: !block.tile<M, f32>)

// -----

// expected-error @+1 {{expected ','}}
func.func @tile_no_comma(%t: !block.tile<[M] f32>)

// -----

// expected-error @+1 {{expected valid keyword or string}}
func.func @tile_numeric_axis(%t: !block.tile<[0], f32>)

//===----------------------------------------------------------------------===//
// #block.axis and the program's axis table
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{axis has an empty name}}
block.program @axis_empty_name axes("" = 4 tiled) () {
  block.return
}

// -----

// expected-error @+1 {{axis 'M' has extent 0; extents are positive}}
block.program @axis_zero_extent axes(M = 0 tiled) () {
  block.return
}

// -----

// expected-error @+1 {{axis 'M' has extent -4; extents are positive}}
block.program @axis_negative_extent axes(M = -4 tiled) () {
  block.return
}

// -----

// expected-error @+1 {{whole axis 'D' has a block size; only tiled axes are blocked}}
block.program @axis_whole_block axes(D = 64 whole block 16) () {
  block.return
}

// -----

// expected-error @+1 {{axis 'M' has block size 0; block sizes are positive}}
block.program @axis_block_zero axes(M = 64 tiled block 0) () {
  block.return
}

// -----

// expected-error @+1 {{axis 'M' has block size -16; block sizes are positive}}
block.program @axis_block_negative axes(M = 64 tiled block -16) () {
  block.return
}

// -----

// expected-error @+1 {{expected 'tiled' or 'whole' after the extent of axis 'M', got 'tiles'}}
block.program @axis_bad_kind axes(M = 64 tiles) () {
  block.return
}

// -----

// expected-error @+1 {{expected '='}}
block.program @axis_no_equals axes(M 64 tiled) () {
  block.return
}

// -----

// expected-error @+1 {{expected integer value}}
block.program @axis_no_extent axes(M = tiled) () {
  block.return
}

// -----

// expected-error @+1 {{expected integer value}}
block.program @axis_block_no_size axes(M = 64 tiled block) () {
  block.return
}

// -----

// expected-error @+1 {{axis table declares 'N' twice}}
block.program @axis_table_duplicate axes(M = 4 tiled, N = 8 tiled, N = 16 whole) () {
  block.return
}

// -----

// The attribute on its own (not in a program's table) is verified too.
// expected-error @+1 {{axis 'K' has extent 0; extents are positive}}
func.func @axis_attr_zero_extent() attributes {axis = #block.axis<K = 0 tiled>}

// -----

// expected-error @+1 {{expected 'tiled' or 'whole' after the extent of axis 'K', got 'block'}}
func.func @axis_attr_no_kind() attributes {axis = #block.axis<K = 8 block 4>}

//===----------------------------------------------------------------------===//
// Combiners
//===----------------------------------------------------------------------===//

// -----

block.program @combiner_unknown_reduce axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{expected a combiner (add, mul, max, min), got 'avg'}}
    %r = block.reduce N combiners [add, avg] -> !block.tile<[M], f32>, !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @combiner_unknown_tile_reduce axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) {
  block.map [M] {
    %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
    // expected-error @+1 {{expected a combiner (add, mul, max, min), got 'sum'}}
    %s = block.tile_reduce sum %t over [N] : !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}

// -----

// expected-error @+2 {{expected ::blockbuster::block::CombinerKind to be one of: add, mul, max, min}}
// expected-error @+1 {{failed to parse Block_CombinerKindAttr parameter 'value'}}
func.func @combiner_attr_unknown() attributes {kind = #block<combiner avg>}

// -----

block.program @predicate_unknown axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], index>
    // expected-error @+1 {{expected a predicate (eq, ne, lt, le, gt, ge, or ueq ... uge), got 'less'}}
    %c = block.compare less %a, %a : !block.tile<[M], index>, !block.tile<[M], index>
    block.yield
  }
  block.return
}
