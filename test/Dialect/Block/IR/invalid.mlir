// RUN: bb-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the block dialect ops (lib/Dialect/Block/IR/BlockOps.cpp)
// and the ODS constraints that enforce the memory tiers. One case per split.
// Where the custom parser would refuse the op first (inferred result types),
// the op is written in generic form so that the verifier is reached.

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

// expected-error @+1 {{axis table declares 'M' twice}}
block.program @program_dup_axis axes(M = 4 tiled, M = 8 tiled) () {
  block.return
}

// -----

// expected-error @+1 {{argument #0 has type '!block.tile<[M], f32>'; program arguments are buffered arrays}}
block.program @program_tile_arg axes(M = 4 tiled) (%t: !block.tile<[M], f32>) {
  block.return
}

// -----

// expected-error @+1 {{result #0 has type '!block.tile<[M], f32>'; program results are buffered arrays}}
block.program @program_tile_result axes(M = 4 tiled) () -> !block.tile<[M], f32> {
  block.return
}

// -----

// A compute op outside a map body.
block.program @program_top_level_compute axes(M = 4 tiled) () {
  // expected-error @+1 {{'block.constant' op is not allowed at the top level of a block program: only block.map (a kernel), block.view and block.return may appear there}}
  %c = block.constant [M] 0.0 : f32
  block.return
}

// -----

// A load outside a map or reduce body, at the top level.
block.program @program_top_level_load axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  // expected-error @+1 {{'block.load' op is not allowed at the top level of a block program}}
  %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
  block.return
}

// -----

// The axis table holds #block.axis entries only (ODS constraint; it fires
// before the custom "is not a #block.axis" check).
// expected-error @+1 {{attribute 'axes' failed to satisfy constraint: axis table}}
"block.program"() <{axes = [1 : i32], function_type = () -> (), sym_name = "program_bad_table"}> ({
  "block.return"() : () -> ()
}) : () -> ()

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

// -----

block.program @return_count axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  // expected-error @+1 {{returns 0 values but @return_count declares 1 results}}
  block.return
}

// -----

block.program @return_type axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf16> {
  // expected-error @+1 {{operand #0 has type '!block.array<4xf32>' but @return_type declares result type '!block.array<4xf16>'}}
  block.return %x : !block.array<4xf32>
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

// -----

block.program @map_axis_twice axes(M = 4 tiled) () {
  // expected-error @+1 {{iterates axis 'M' twice}}
  block.map [M, M] {
    block.yield
  }
  block.return
}

// -----

block.program @map_whole_axis axes(D = 2 whole) () {
  // expected-error @+1 {{iterates axis 'D', which is whole; maps iterate tiled axes}}
  block.map [D] {
    block.yield
  }
  block.return
}

// -----

block.program @map_return_in_body axes(M = 4 tiled) () {
  // expected-error @+1 {{'block.map' op body must end with block.yield}}
  block.map [M] {
    block.return
  }
  block.return
}

// -----

// The body's last op is not a terminator (the map is verified before its
// body, so this is the map's error, not the block's).
block.program @map_no_terminator axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  // expected-error @+1 {{'block.map' op body must end with block.yield}}
  block.map [M] {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
  }
  block.return
}

// -----

block.program @map_block_argument axes(M = 4 tiled) () -> !block.array<4xf32> {
  // expected-error @+1 {{'block.map' op body takes no block arguments; block indices are implicit in the axes}}
  %y = block.map [M] -> !block.array<4xf32> {
  ^bb0(%i: !block.tile<[M], f32>):
    block.yield %i : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @map_yield_count axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  // expected-error @+1 {{yields 1 tiles but has 0 results}}
  block.map [M] {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return
}

// -----

block.program @map_yield_lacks_axis axes(M = 4 tiled, D = 2 whole) (%x: !block.array<2xf32>) -> !block.array<2xf32> {
  // expected-error @+1 {{yielded tile #0 lacks map axis 'M'; every instance must write its own block of the result}}
  %y = block.map [M] -> !block.array<2xf32> {
    %t = block.load %x[D] : !block.array<2xf32> -> !block.tile<[D], f32>
    block.yield %t : !block.tile<[D], f32>
  }
  block.return %y : !block.array<2xf32>
}

// -----

block.program @map_yield_tiled_axis axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4x8xf32> {
  // expected-error @+1 {{yielded tile #0 has tiled axis 'N' that the map does not iterate; the yield's axes must be the map's axes plus whole axes}}
  %y = block.map [M] -> !block.array<4x8xf32> {
    %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
    block.yield %t : !block.tile<[M, N], f32>
  }
  block.return %y : !block.array<4x8xf32>
}

// -----

block.program @map_element_type axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf16> {
  // expected-error @+1 {{result #0 has element type 'f16' but the yielded tile has 'f32'}}
  %y = block.map [M] -> !block.array<4xf16> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf16>
}

// -----

block.program @map_rank axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4x2xf32> {
  // expected-error @+1 {{result #0 has rank 2 but the yielded tile has 1 axes}}
  %y = block.map [M] -> !block.array<4x2xf32> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4x2xf32>
}

// -----

block.program @map_extent axes(M = 4 tiled, D = 2 whole) (%x: !block.array<4x2xf32>) -> !block.array<4x3xf32> {
  // expected-error @+1 {{result #0 dimension 1 has extent 3 but the yielded axis 'D' has extent 2}}
  %y = block.map [M] -> !block.array<4x3xf32> {
    %t = block.load %x[M, D] : !block.array<4x2xf32> -> !block.tile<[M, D], f32>
    block.yield %t : !block.tile<[M, D], f32>
  }
  block.return %y : !block.array<4x3xf32>
}

// -----

// A map yields tiles, never the buffered arrays it could read.
block.program @map_yield_array axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{'block.yield' op operand #0 must be variadic of unbuffered tile}}
    block.yield %x : !block.array<4xf32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

// Maps are kernels: they appear only at the top level of a program.
block.program @map_in_map axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.map' op expects parent op 'block.program'}}
    block.map [N] {
      block.yield
    }
    block.yield
  }
  block.return
}

// -----

block.program @map_result_tile axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  // expected-error @+1 {{'block.map' op result #0 must be variadic of buffered array}}
  %y = block.map [M] -> !block.tile<[M], f32> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

// -----

block.program @reduce_iterated_axis axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{reduces over axis 'M', which an enclosing map or reduce already iterates}}
    %r = block.reduce M combiners [add] -> !block.tile<[], f32> {
      %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
      %s = block.tile_reduce add %t over [M] : !block.tile<[M], f32>
      block.yield %s : !block.tile<[], f32>
    }
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_result_axis axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{result #0 has the reduced axis 'N'; the fold combines blocks at different positions of that axis}}
    %r = block.reduce N combiners [add] -> !block.tile<[M, N], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M, N], f32>
    }
    %s = block.tile_reduce add %r over [N] : !block.tile<[M, N], f32>
    block.yield %s : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_both_combiners axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    // expected-error @+1 {{has both built-in combiners and a combine region; use one or the other}}
    %r = block.reduce N combiners [add] init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      %c = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combiner_count axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{has 2 combiners for 1 results}}
    %r = block.reduce N combiners [add, max] -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_no_combiner axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{needs built-in 'combiners' or a 'combine' region}}
    %r = block.reduce N -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_init_count axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{has 0 init values for 1 results}}
    %r = block.reduce N -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      %c = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_init_type axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f16
    // expected-error @+1 {{init #0 has type '!block.tile<[M], f16>' but result #0 has type '!block.tile<[M], f32>'}}
    %r = block.reduce N init(%z : !block.tile<[M], f16>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      %c = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

// The body ends with a terminator of another dialect (a non-terminator last
// op is reported by the generic block verifier instead).
block.program @reduce_body_terminator axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{'block.reduce' op body must end with block.yield}}
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      llvm.unreachable
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_body_argument axes(M = 4 tiled, N = 8 tiled) () -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{'block.reduce' op body takes no block arguments; block indices are implicit in the axes}}
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
    ^bb0(%i: !block.tile<[M], f32>):
      block.yield %i : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_term_count axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{body yields 2 terms for 1 results}}
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s, %s : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_term_type axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{term #0 has type '!block.tile<[M, N], f32>' but result #0 has type '!block.tile<[M], f32>'; built-in combiners fold like with like}}
    %r = block.reduce N combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M, N], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_arity axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    // expected-error @+1 {{combine region takes 1 arguments; it takes the state (1 values) followed by the terms (1 values)}}
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>):
      block.yield %a : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_state_type axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    // expected-error @+1 {{combine argument #0 has type '!block.tile<[M], f16>' but state #0 has type '!block.tile<[M], f32>'}}
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f16>, %b: !block.tile<[M], f32>):
      block.yield %b : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_term_type axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    // expected-error @+1 {{combine argument #1 has type '!block.tile<[M], f32>' but term #0 has type '!block.tile<[M, N], f32>'}}
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      block.yield %t : !block.tile<[M, N], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      block.yield %b : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_terminator axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    // expected-error @+1 {{combine region must end with block.yield}}
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      llvm.unreachable
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_yield axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    // expected-error @+1 {{combine region must yield the new state, with the result types}}
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      block.yield %a, %b : !block.tile<[M], f32>, !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_load axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>, %w: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      // expected-error @+1 {{'block.load' op is not allowed in a combine region, which folds tiles already in local memory}}
      %l = block.load %w[M] : !block.array<4xf32> -> !block.tile<[M], f32>
      %c = block.add %a, %l : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @reduce_combine_reduce axes(M = 4 tiled, N = 8 tiled, K = 2 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[M], f32>):
      // expected-error @+1 {{'block.reduce' op is not allowed in a combine region, which folds tiles already in local memory}}
      %i = block.reduce K combiners [add] -> !block.tile<[M], f32> {
        block.yield %b : !block.tile<[M], f32>
      }
      %c = block.add %a, %i : !block.tile<[M], f32>, !block.tile<[M], f32>
      block.yield %c : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

// -----

block.program @load_rank axes(M = 4 tiled) (%x: !block.array<4x2xf32>) {
  block.map [M] {
    // expected-error @+1 {{has 1 index entries for a source of rank 2; give one per array dimension}}
    %t = block.load %x[M] : !block.array<4x2xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @load_fixed_index axes(M = 4 tiled) (%x: !block.array<4x2xf32>) {
  block.map [M] {
    // expected-error @+1 {{fixed index 2 of dimension 1 is outside [0, 2)}}
    %t = block.load %x[M, 2] : !block.array<4x2xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @load_axis_twice axes(M = 4 tiled) (%x: !block.array<4x4xf32>) {
  block.map [M] {
    // expected-error @+1 {{indexes two dimensions with axis 'M'}}
    %t = block.load %x[M, M] : !block.array<4x4xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @load_extent axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4xf32>) {
  block.map [N] {
    // expected-error @+1 {{axis 'N' (extent 8) indexes dimension 0 of extent 4; extents must match, or write 'N + OFFSET' for a slice}}
    %t = block.load %x[N] : !block.array<4xf32> -> !block.tile<[N], f32>
    block.yield
  }
  block.return
}

// -----

block.program @load_slice_past_end axes(M = 4 tiled) (%x: !block.array<8xf32>) {
  block.map [M] {
    // expected-error @+1 {{slice 'M + 6' (extent 4) runs past dimension 0 of extent 8}}
    %t = block.load %x[M + 6] : !block.array<8xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

// A negative slice offset, in generic form (the custom parser refuses it).
block.program @load_slice_negative axes(M = 4 tiled) (%x: !block.array<8xf32>) {
  block.map [M] {
    // expected-error @+1 {{slice 'M + -2' (extent 4) runs past dimension 0 of extent 8}}
    %t = "block.load"(%x) <{indexAxes = ["M"], offsets = array<i64: -2>}> : (!block.array<8xf32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

// Regression: `M + -1` used to parse as the exact index `M` (the offset -1
// encodes "no slice"), so a negative slice was silently dropped.
block.program @load_slice_minus_one axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    // expected-error @+1 {{slice offset -1 of axis 'M' is negative; a slice starts inside the dimension}}
    %t = block.load %x[M + -1] : !block.array<4xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @load_result_axes axes(M = 4 tiled, D = 2 whole) (%x: !block.array<4x2xf32>) {
  block.map [M] {
    // expected-error @+1 {{result axes [M] must be a permutation of the indexing axes [M, D]}}
    %t = block.load %x[M, D] : !block.array<4x2xf32> -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @load_element_type axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    // expected-error @+1 {{result element type 'f16' differs from the source's 'f32'; loads do not convert, use block.cast}}
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f16>
    block.yield
  }
  block.return
}

// -----

// Only arrays are loaded: a tile is already in local memory.
block.program @load_tile axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 0.0 : f32
    // expected-error @+1 {{'block.load' op operand #0 must be buffered array}}
    %t = "block.load"(%c) <{indexAxes = ["M"], offsets = array<i64: -1>}> : (!block.tile<[M], f32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

// A load outside a map or reduce body.
func.func @load_in_func(%x: !block.array<4xf32>) {
  // expected-error @+1 {{'block.load' op expects parent op to be one of 'block.map, block.reduce'}}
  %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
  return
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

// -----

block.program @dot_no_contraction axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [N] 1.0 : f32
    // expected-error @+1 {{contracts no axis; write an outer product as block.mul}}
    %c = block.dot %a, %b contract [] : !block.tile<[M], f32>, !block.tile<[N], f32>
    block.yield
  }
  block.return
}

// -----

block.program @dot_element_types axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : bf16
    %b = block.constant [N, D] 1.0 : f32
    // expected-error @+1 {{operand element types differ ('bf16' and 'f32'); insert a block.cast}}
    %c = block.dot %a, %b contract [D] : !block.tile<[M, D], bf16>, !block.tile<[N, D], f32>
    block.yield
  }
  block.return
}

// -----

block.program @dot_contract_twice axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : f32
    %b = block.constant [N, D] 1.0 : f32
    // expected-error @+1 {{contracts axis 'D' twice}}
    %c = block.dot %a, %b contract [D, D] : !block.tile<[M, D], f32>, !block.tile<[N, D], f32>
    block.yield
  }
  block.return
}

// -----

block.program @dot_missing_lhs axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [N, D] 1.0 : f32
    // expected-error @+1 {{contraction axis 'D' is missing from lhs [M]}}
    %c = block.dot %a, %b contract [D] : !block.tile<[M], f32>, !block.tile<[N, D], f32>
    block.yield
  }
  block.return
}

// -----

block.program @dot_missing_rhs axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : f32
    %b = block.constant [N] 1.0 : f32
    // expected-error @+1 {{contraction axis 'D' is missing from rhs [N]}}
    %c = block.dot %a, %b contract [D] : !block.tile<[M, D], f32>, !block.tile<[N], f32>
    block.yield
  }
  block.return
}

// -----

// The result of a contraction is always f32.
block.program @dot_result_type axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : bf16
    %b = block.constant [N, D] 1.0 : bf16
    // expected-error @+2 {{'block.dot' op inferred type(s) '!block.tile<[M, N], f32>' are incompatible with return type(s) of operation '!block.tile<[M, N], bf16>'}}
    // expected-error @+1 {{'block.dot' op failed to infer returned types}}
    %c = "block.dot"(%a, %b) <{contract = ["D"]}> : (!block.tile<[M, D], bf16>, !block.tile<[N, D], bf16>) -> !block.tile<[M, N], bf16>
    block.yield
  }
  block.return
}

// -----

block.program @dot_integer axes(M = 4 tiled, N = 8 tiled, D = 2 whole) () {
  block.map [M, N] {
    %a = block.constant [M, D] 1 : i32
    %b = block.constant [N, D] 1 : i32
    // expected-error @+1 {{'block.dot' op operand #0 must be unbuffered tile of floating-point elements}}
    %c = "block.dot"(%a, %b) <{contract = ["D"]}> : (!block.tile<[M, D], i32>, !block.tile<[N, D], i32>) -> !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}

// -----

// A contraction reads an array without loading it (custom form: the result
// type cannot be inferred).
block.program @dot_array_custom axes(M = 4 tiled, N = 8 tiled, D = 2 whole) (%x: !block.array<8x2xf32>) {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : f32
    // expected-error @+1 {{'block.dot' operands must be tiles}}
    %c = block.dot %a, %x contract [D] : !block.tile<[M, D], f32>, !block.array<8x2xf32>
    block.yield
  }
  block.return
}

// -----

block.program @dot_array_generic axes(M = 4 tiled, N = 8 tiled, D = 2 whole) (%x: !block.array<8x2xf32>) {
  block.map [M, N] {
    %a = block.constant [M, D] 1.0 : f32
    // expected-error @+1 {{'block.dot' op operand #1 must be unbuffered tile of floating-point elements}}
    %c = "block.dot"(%a, %x) <{contract = ["D"]}> : (!block.tile<[M, D], f32>, !block.array<8x2xf32>) -> !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops
//===----------------------------------------------------------------------===//

// -----

block.program @add_element_types axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [M] 1.0 : f16
    // expected-error @+1 {{'block.add' op lhs has element type 'f32' but rhs has 'f16'; elementwise ops do not convert, insert a block.cast}}
    %c = block.add %a, %b : !block.tile<[M], f32>, !block.tile<[M], f16>
    block.yield
  }
  block.return
}

// -----

block.program @div_element_types axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1 : i32
    %b = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.div' op lhs has element type 'i32' but rhs has 'f32'}}
    %c = block.div %a, %b : !block.tile<[M], i32>, !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

// A compute op on a buffered array (custom form: the result type cannot be
// inferred).
block.program @add_array_custom axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.add' operands must be unbuffered tiles}}
    %c = block.add %a, %x : !block.tile<[M], f32>, !block.array<4xf32>
    block.yield
  }
  block.return
}

// -----

block.program @add_array_generic axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.add' op operand #1 must be unbuffered tile (!block.tile; compute ops never read buffered arrays, load them first), but got '!block.array<4xf32>'}}
    %c = "block.add"(%a, %x) : (!block.tile<[M], f32>, !block.array<4xf32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

// Broadcasting puts the axes of lhs first.
block.program @mul_result_type axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [N] 1.0 : f32
    // expected-error @+2 {{'block.mul' op inferred type(s) '!block.tile<[M, N], f32>' are incompatible with return type(s) of operation '!block.tile<[N, M], f32>'}}
    // expected-error @+1 {{'block.mul' op failed to infer returned types}}
    %c = "block.mul"(%a, %b) : (!block.tile<[M], f32>, !block.tile<[N], f32>) -> !block.tile<[N, M], f32>
    block.yield
  }
  block.return
}

// -----

// A compute op outside a map or reduce body, in a function.
func.func @sub_in_func(%a: !block.tile<[M], f32>) {
  // expected-error @+1 {{'block.sub' op expects parent op to be one of 'block.map, block.reduce'}}
  %c = block.sub %a, %a : !block.tile<[M], f32>, !block.tile<[M], f32>
  return
}

// -----

// A compute op in a region of another dialect inside a map body.
block.program @constant_in_foreign_region axes(M = 4 tiled) () -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %t = scf.execute_region -> !block.tile<[M], f32> {
      // expected-error @+1 {{'block.constant' op expects parent op to be one of 'block.map, block.reduce'}}
      %c = block.constant [M] 0.0 : f32
      scf.yield %c : !block.tile<[M], f32>
    }
    block.yield %t : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// -----

block.program @exp_integer axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1 : i32
    // expected-error @+1 {{'block.exp' op operand #0 must be unbuffered tile of floating-point elements}}
    %b = block.exp %a : !block.tile<[M], i32>
    block.yield
  }
  block.return
}

// -----

block.program @neg_result_type axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.neg' op requires the same type for all operands and results}}
    %b = "block.neg"(%a) : (!block.tile<[M], f32>) -> !block.tile<[M], f16>
    block.yield
  }
  block.return
}

// -----

block.program @exp_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    // expected-error @+1 {{'block.exp' op operand #0 must be unbuffered tile of floating-point elements}}
    %b = block.exp %x : !block.array<4xf32>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// SelectOp, CompareOp
//===----------------------------------------------------------------------===//

// -----

block.program @select_element_types axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 1 : i1
    %a = block.constant [M] 1.0 : f32
    %b = block.constant [] 0.0 : f16
    // expected-error @+1 {{'block.select' op true_value has element type 'f32' but false_value has 'f16'; elementwise ops do not convert, insert a block.cast}}
    %r = block.select %c, %a, %b : !block.tile<[M], i1>, !block.tile<[M], f32>, !block.tile<[], f16>
    block.yield
  }
  block.return
}

// -----

block.program @select_condition axes(M = 4 tiled) () {
  block.map [M] {
    %c = block.constant [M] 1 : i32
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.select' op operand #0 must be unbuffered tile of i1 (a mask)}}
    %r = block.select %c, %a, %a : !block.tile<[M], i32>, !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @select_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %c = block.constant [M] 1 : i1
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.select' operands must be unbuffered tiles}}
    %r = block.select %c, %x, %a : !block.tile<[M], i1>, !block.array<4xf32>, !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @compare_element_types axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.iota M : !block.tile<[M], index>
    %b = block.iota N : !block.tile<[N], i32>
    // expected-error @+1 {{'block.compare' op lhs has element type 'index' but rhs has 'i32'}}
    %r = block.compare ge %a, %b : !block.tile<[M], index>, !block.tile<[N], i32>
    block.yield
  }
  block.return
}

// -----

block.program @compare_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.compare' operands must be unbuffered tiles}}
    %r = block.compare lt %a, %x : !block.tile<[M], f32>, !block.array<4xf32>
    block.yield
  }
  block.return
}

// -----

block.program @compare_result_type axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.compare' op result #0 must be unbuffered tile of i1 (a mask)}}
    %r = "block.compare"(%a, %a) <{predicate = #block<predicate lt>}> : (!block.tile<[M], f32>, !block.tile<[M], f32>) -> !block.tile<[M], f32>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// TileReduceOp
//===----------------------------------------------------------------------===//

// -----

block.program @tile_reduce_no_axis axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{'block.tile_reduce' op reduces no axis}}
    %r = block.tile_reduce add %a over [] : !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @tile_reduce_axis_twice axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M] {
    %a = block.constant [M, N] 1.0 : f32
    // expected-error @+1 {{reduces axis 'N' twice}}
    %r = block.tile_reduce max %a over [N, N] : !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}

// -----

block.program @tile_reduce_missing_axis axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : f32
    // expected-error @+1 {{reduced axis 'N' is missing from the operand [M]}}
    %r = block.tile_reduce add %a over [N] : !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @tile_reduce_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    // expected-error @+1 {{'block.tile_reduce' operand must be a tile}}
    %r = block.tile_reduce add %x over [M] : !block.array<4xf32>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

// -----

block.program @cast_axes axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M, N] 1.0 : f32
    // expected-error @+1 {{'block.cast' op changes the axes of its operand; a cast converts elements only}}
    %b = block.cast %a : !block.tile<[M, N], f32> to !block.tile<[N, M], bf16>
    block.yield
  }
  block.return
}

// -----

block.program @cast_index_to_float axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], index>
    // expected-error @+1 {{'block.cast' op cannot convert between index and 'f32'; cast the index to an integer first}}
    %b = block.cast %a : !block.tile<[M], index> to !block.tile<[M], f32>
    block.yield
  }
  block.return
}

// -----

block.program @cast_float_to_index axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.constant [M] 1.0 : bf16
    // expected-error @+1 {{'block.cast' op cannot convert between index and 'bf16'; cast the index to an integer first}}
    %b = block.cast %a : !block.tile<[M], bf16> to !block.tile<[M], index>
    block.yield
  }
  block.return
}

// -----

block.program @cast_array axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    // expected-error @+1 {{'block.cast' op operand #0 must be unbuffered tile}}
    %b = block.cast %x : !block.array<4xf32> to !block.tile<[M], f16>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

// -----

block.program @broadcast_element_type axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [N] 1.0 : f32
    // expected-error @+1 {{'block.broadcast' op changes the element type; use block.cast}}
    %b = block.broadcast %a : !block.tile<[N], f32> to !block.tile<[M, N], f16>
    block.yield
  }
  block.return
}

// -----

block.program @broadcast_drops_axis axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    %a = block.constant [M, N] 1.0 : f32
    // expected-error @+1 {{'block.broadcast' op drops axis 'M' of its operand; reduce it with block.tile_reduce instead}}
    %b = block.broadcast %a : !block.tile<[M, N], f32> to !block.tile<[N], f32>
    block.yield
  }
  block.return
}

// -----

block.program @broadcast_array axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<8xf32>) {
  block.map [M, N] {
    // expected-error @+1 {{'block.broadcast' op operand #0 must be unbuffered tile}}
    %b = block.broadcast %x : !block.array<8xf32> to !block.tile<[M, N], f32>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

// -----

// A typed value of a storable type that is neither a float nor an integer.
block.program @constant_not_a_number axes(M = 4 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.constant' op value must be a float or an integer}}
    %c = block.constant [M] #ml_program.extern : f32
    block.yield
  }
  block.return
}

// -----

// Regression: the inferred tile type used to skip the type's verifier, so a
// tensor-typed value made a tile of tensors.
block.program @constant_dense axes(M = 4 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.constant' result: tile element type 'tensor<f32>' is not supported}}
    %c = block.constant [M] dense<0.0> : tensor<f32>
    block.yield
  }
  block.return
}

// -----

// Regression: a constant made a tile naming one axis twice.
block.program @constant_axis_twice axes(M = 4 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.constant' result: tile names axis 'M' twice; each axis indexes one dimension}}
    %c = block.constant [M, M] 0.0 : f32
    block.yield
  }
  block.return
}

// -----

// Regression: a constant made a tile of an element type that tiles cannot
// hold.
block.program @constant_element_type axes(M = 4 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.constant' result: tile element type 'f8E4M3FN' is not supported (f16, bf16, f32, f64, i1, i8, i16, i32, i64, index)}}
    %c = block.constant [M] 1.0 : f8E4M3FN
    block.yield
  }
  block.return
}

// -----

// Regression: a constant made a tile with an empty axis name.
block.program @constant_empty_axis axes(M = 4 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.constant' result: tile axis 0 has an empty name}}
    %c = block.constant [""] 0.0 : f32
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// IotaOp
//===----------------------------------------------------------------------===//

// -----

block.program @iota_axis axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    // expected-error @+1 {{'block.iota' op result must have exactly the axis 'M'}}
    %a = block.iota M : !block.tile<[N], index>
    block.yield
  }
  block.return
}

// -----

block.program @iota_rank axes(M = 4 tiled, N = 8 tiled) () {
  block.map [M, N] {
    // expected-error @+1 {{'block.iota' op result must have exactly the axis 'M'}}
    %a = block.iota M : !block.tile<[M, N], index>
    block.yield
  }
  block.return
}

// -----

block.program @iota_element_type axes(M = 4 tiled) () {
  block.map [M] {
    // expected-error @+1 {{'block.iota' op result element type 'f32' is not an integer or index}}
    %a = block.iota M : !block.tile<[M], f32>
    block.yield
  }
  block.return
}

//===----------------------------------------------------------------------===//
// DeclaredAxes
//===----------------------------------------------------------------------===//

// -----

// An operand tile names an undeclared axis (a combine region's arguments
// are checked only after the ops that use them).
block.program @declared_operand axes(M = 4 tiled, N = 8 tiled) (%x: !block.array<4x8xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %z = block.constant [M] 0.0 : f32
    %r = block.reduce N init(%z : !block.tile<[M], f32>) -> !block.tile<[M], f32> {
      %t = block.load %x[M, N] : !block.array<4x8xf32> -> !block.tile<[M, N], f32>
      %s = block.tile_reduce add %t over [N] : !block.tile<[M, N], f32>
      block.yield %s : !block.tile<[M], f32>
    } combine {
    ^bb0(%a: !block.tile<[M], f32>, %b: !block.tile<[K], f32>):
      // expected-error @+1 {{'block.tile_reduce' op operand #0 names axis 'K', which the axis table of @declared_operand does not declare}}
      %c = block.tile_reduce add %b over [K] : !block.tile<[K], f32>
      block.yield %a : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

block.program @declared_result axes(M = 4 tiled) (%x: !block.array<4xf32>) {
  block.map [M] {
    // expected-error @+1 {{'block.load' op result #0 names axis 'K', which the axis table of @declared_result does not declare}}
    %t = block.load %x[K] : !block.array<4xf32> -> !block.tile<[K], f32>
    block.yield
  }
  block.return
}

// -----

// A string attribute (the reduced axis).
block.program @declared_string_attr axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{'block.reduce' op attribute 'axis' names axis 'K', which the axis table of @declared_string_attr does not declare}}
    %r = block.reduce K combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

// An array attribute (the map's axes).
block.program @declared_array_attr axes(M = 4 tiled) () {
  // expected-error @+1 {{'block.map' op attribute 'axes' names axis 'K', which the axis table of @declared_array_attr does not declare}}
  block.map [K] {
    block.yield
  }
  block.return
}

// -----

// Regression: the empty name (a fixed index in a load) was accepted as an
// axis by every op.
block.program @declared_empty_map_axis axes(M = 4 tiled) () {
  // expected-error @+1 {{'block.map' op attribute 'axes' names axis '', which the axis table of @declared_empty_map_axis does not declare}}
  block.map [""] {
    block.yield
  }
  block.return
}

// -----

block.program @declared_empty_reduce_axis axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    // expected-error @+1 {{'block.reduce' op attribute 'axis' names axis '', which the axis table of @declared_empty_reduce_axis does not declare}}
    %r = block.reduce "" combiners [add] -> !block.tile<[M], f32> {
      %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
      block.yield %t : !block.tile<[M], f32>
    }
    block.yield %r : !block.tile<[M], f32>
  }
  block.return %y : !block.array<4xf32>
}

// -----

// Regression: discardable attributes are not axis names; this one used to be
// reported as an undeclared axis 'hello'. The map and the add verify; the
// error comes from the return, verified after them.
block.program @declared_discardable_attr axes(M = 4 tiled) (%x: !block.array<4xf32>) -> !block.array<4xf32> {
  %y = block.map [M] -> !block.array<4xf32> {
    %t = block.load %x[M] : !block.array<4xf32> -> !block.tile<[M], f32>
    %u = block.add %t, %t {note = "hello"} : !block.tile<[M], f32>, !block.tile<[M], f32>
    block.yield %u : !block.tile<[M], f32>
  }
  // expected-error @+1 {{returns 0 values but @declared_discardable_attr declares 1 results}}
  block.return
}

// -----

block.program @view_element_type axes(M = 4 tiled) (%x: !block.array<4x8xf32>) {
  // expected-error @+1 {{'block.view' op changes the element type from 'f32' to 'f16'; a view only reshapes}}
  %v = block.view %x : !block.array<4x8xf32> to !block.array<32xf16>
  block.return
}

// -----

block.program @view_count axes(M = 4 tiled) (%x: !block.array<4x8xf32>) {
  // expected-error @+1 {{'block.view' op views 32 elements as 16; a view keeps the number of elements}}
  %v = block.view %x : !block.array<4x8xf32> to !block.array<16xf32>
  block.return
}

// -----

block.program @view_in_body axes(M = 4 tiled) (%x: !block.array<4x8xf32>) {
  block.map [M] {
    // expected-error @+1 {{'block.view' op expects parent op 'block.program'}}
    %v = block.view %x : !block.array<4x8xf32> to !block.array<32xf32>
    block.yield
  }
  block.return
}

// -----

block.program @compare_unordered_integers axes(M = 4 tiled) () {
  block.map [M] {
    %a = block.iota M : !block.tile<[M], index>
    // expected-error @+1 {{'block.compare' op predicate 'une' is unordered, which only floats are; compare 'index' with 'eq' or 'ne'}}
    %c = block.compare une %a, %a : !block.tile<[M], index>, !block.tile<[M], index>
    block.yield
  }
  block.return
}
