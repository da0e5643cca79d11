//===- Passes.td - Block programs to Linalg on tensors -----*- tablegen -*-===//

#ifndef BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_PASSES_TD
#define BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertBlockToLinalg : Pass<"convert-block-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers block programs to per-block Linalg on tensors";
  let description = [{
    Replaces every `block.program` by a `func.func` of the same name whose
    arguments and results are tensors of the arrays' shapes and element
    types, in the same order. Every tiled axis must have a block size (run
    `block-select` first); an axis without one is an error that names it.
    So is a tile that spans the whole extent of an axis (it is defined
    outside the map or reduce that iterates the axis) used where that axis
    is one block.

    - `block.map [A, B]` becomes an `scf.forall` over the block grid
      (`ceil(extent / block)` blocks per axis) with one `tensor.empty`
      shared output per result. The body computes each axis' block offset
      `index * block` and size `min(block, extent - offset)`, so partial
      edge blocks are exact (the size is static when the block divides the
      extent); each yielded tile becomes a `tensor.parallel_insert_slice`.
    - `block.reduce A` becomes an `scf.for` over the blocks of A whose
      `iter_args` are the state. Built-in combiners start from their
      identity (0, 1, -inf, +inf; the extreme values for integers; false
      and true for max and min of i1 masks, which are `ori` and `andi`) and
      fold each term with an `arith` op; a `combine` region starts from
      `init` and is inlined with (state, terms).
    - A tile is a tensor whose dimensions follow the tile's axis order; an
      axis has the current block's size where an enclosing map or reduce
      iterates it, its whole extent elsewhere.
    - `block.load` is a `tensor.extract_slice` at the current offsets (a
      slice `A + c` adds c, a fixed index c is a unit dimension dropped from
      the result; where a kept dimension has size 1 too, the slice keeps
      its rank and a `tensor.collapse_shape` drops the fixed dimensions,
      because a rank-reducing slice would not say which unit dimension
      goes), followed by a `linalg.transpose` when the tile lists the axes
      in another order than the array.
    - Elementwise ops (`add` ... `gelu`, `select`, `compare`, `broadcast`)
      are `linalg.generic`s whose indexing maps place each operand's axes
      by name, which is how broadcasting and transposition by name are
      lowered. `block.dot` is a contraction `linalg.generic` that extends
      its operands to f32 and accumulates in f32; `tile_reduce` a
      `linalg.generic` with reduction iterators; `cast` the matching
      `arith` conversion (i1 masks convert as 0 or 1, index as
      `arith.index_cast`; the `arith.truncf` of a cast marked
      `block.rescalable` carries `blockbuster.rescalable`, the licence to
      move that rounding past a positive factor, which
      gpu-flash-attention reads); `constant` a `linalg.fill`; `iota` a
      `linalg.generic` over `linalg.index` plus the block offset. `gelu` is
      the exact erf form, `silu` is `x * sigmoid(x)`, `rsqrt` is
      `math.rsqrt`, `erf`, `sin`, `cos`, `tanh`, `exp`, `log`, `sqrt` are
      the `math` ops of the same name.
    - Arithmetic on f16 and bf16 elements is done in f32 and rounded once
      per op; sums and products of f16/bf16 (in `tile_reduce` and in
      built-in `add`/`mul` combiners) accumulate in f32 and round at the
      end.

    ```mlir
    block.program @scale axes(M = 100 tiled block 32, D = 8 whole)
        (%x: !block.array<100x8xf32>) -> !block.array<100x8xf32> { ... }
    // becomes
    func.func @scale(%x: tensor<100x8xf32>) -> tensor<100x8xf32> {
      %r = scf.forall (%i) in (4) shared_outs(%o = %empty)
          -> tensor<100x8xf32> {
        %off = arith.muli %i, %c32 : index
        %rest = arith.subi %c100, %off : index
        %size = arith.minsi %rest, %c32 : index
        %t = tensor.extract_slice %x[%off, 0] [%size, 8] [1, 1]
            : tensor<100x8xf32> to tensor<?x8xf32>
        ...
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %y into %o[%off, 0] [%size, 8] [1, 1]
              : tensor<?x8xf32> into tensor<100x8xf32>
        }
      }
      return %r : tensor<100x8xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"emitCInterface", "emit-c-interface", "bool", /*default=*/"false",
           "Mark the functions llvm.emit_c_interface, so that a JIT or C "
           "caller can pass memref descriptors by pointer">
  ];
}

#endif // BLOCKBUSTER_CONVERSION_BLOCKTOLINALG_PASSES_TD
