//===- Passes.td - Linalg to block conversion --------------*- tablegen -*-===//

#ifndef BLOCKBUSTER_CONVERSION_LINALGTOBLOCK_PASSES_TD
#define BLOCKBUSTER_CONVERSION_LINALGTOBLOCK_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToBlock : Pass<"convert-linalg-to-block", "::mlir::ModuleOp"> {
  let summary = "Converts Linalg on tensors to an unfused block program";
  let description = [{
    Rewrites every `func.func` on statically shaped tensors into a
    `block.program` of the same name and signature (tensors become arrays),
    with one top-level `block.map` per array operator: the unfused program
    that `block-fuse` starts from.

    The operator table (docs/LinalgToBlock.md):

    - `linalg.generic` with projected-permutation indexing maps (constant
      indices allowed for unit dimensions), parallel and reduction
      iterators, and a scalar body of `arith`/`math` ops and `linalg.index`;
      reductions whose yield combines the accumulator with add, mul, max or
      min; contractions (a product summed over dimensions both factors use)
      become `block.dot`;
    - named Linalg ops (`linalg.matmul` with any `indexing_maps`,
      `linalg.batch_matmul`, `linalg.reduce`, `linalg.transpose`,
      `linalg.broadcast`, `linalg.copy`, ...) through their generic form;
      `linalg.softmax` through its decomposition (max, exp, sum, divide);
    - transposes and broadcasts are absorbed into the loads of their
      consumers; `linalg.fill` and `tensor.empty` only provide initial
      values.

    Axes come from unifying loop dimensions: a consumer's loop dimension
    that reads a dimension of a producer's result gets the producer's axis;
    dimensions that read the same argument dimension share an axis, unless
    one op reads it in two roles (`x @ x^T`), which then gets two axes.
    Whole or tiled depends on the axis' role: a row axis (no statistic
    reduces it and it is never the innermost non-unit dimension of what a
    reduction reads whole: rows, queries, heads, batch) is tiled whenever
    its extent is above 1; a reduced or feature axis is whole up to
    `whole-threshold`, tiled above (block sizes unset: `block-select`
    chooses them). The statistics a reduction writes ([B, H, S]: rows
    innermost) and elementwise operators over axes that a reduction shows
    to be rows do not make a feature axis.

    Anything outside the table (convolutions, dynamic shapes, reshapes,
    gathers, tensor constants, ops with side effects) stops the conversion
    with an error that names the op and the reason; nothing is skipped or
    approximated.

    ```mlir
    // Before
    func.func @scale(%x: tensor<1024x64xf32>) -> tensor<1024x64xf32> { ... }
    // After
    block.program @scale axes(a0 = 1024 tiled, a1 = 64 whole)
        (%x: !block.array<1024x64xf32>) -> !block.array<1024x64xf32> { ... }
    ```
  }];
  let options = [
    Option<"wholeThreshold", "whole-threshold", "int64_t", /*default=*/"256",
           "Reduced and feature axes with at most this extent are whole "
           "(one block spans them); row axes are tiled at any extent">,
    Option<"wholeDotReducedAxes", "whole-dot-reduced-axes", "bool",
           /*default=*/"true",
           "A dot's reduced axis that no operand holds innermost (the heads "
           "of an output projection over [heads, 64]) is a reduced axis, "
           "whole up to whole-threshold; false: a row axis, tiled">,
    Option<"tiledAttentionKeys", "tiled-attention-keys", "bool",
           /*default=*/"false",
           "An axis a contraction makes, a statistic reduces and another "
           "contraction reduces (the keys of softmax(Q K^T) V) is tiled at "
           "any extent above 1 (a reduce over key blocks: the form of "
           "gpu-flash-attention's register schedule, also for sequences "
           "below whole-threshold)">
  ];
  let dependentDialects = [
    "::blockbuster::block::BlockDialect", "::mlir::affine::AffineDialect"
  ];
}

def NormaliseLinalgForBlock
    : Pass<"normalise-linalg-for-block", "::mlir::func::FuncOp"> {
  let summary = "Rewrites Linalg into the form convert-linalg-to-block reads";
  let description = [{
    The first step of `convert-linalg-to-block`, as a pass of its own so its
    result can be seen: `linalg.softmax` is decomposed, named Linalg ops are
    generalised (fills stay fills), reshapes are moved out to the function's
    arguments and results by expanding the iteration space of the operators
    they touch (upstream `populateFoldReshapeOpsByExpansionPatterns`), and
    then dimensions of extent 1 are dropped from every operator (upstream
    `populateFoldUnitExtentDimsPatterns`; the reshapes this leaves between
    operators cancel).

    Frontends write `[B, S, D] -> [B*S, D]` collapses around every linear
    layer, keepdim row statistics (`[B, M, 1]`) and head splits as reshapes;
    after this pass each operator works in one expanded shape, so the block
    program sees one set of axes.

    ```mlir
    // Before
    %c = tensor.collapse_shape %x [[0, 1], [2]]
        : tensor<2x16x64xf32> into tensor<32x64xf32>
    %y = linalg.matmul ins(%c, %w : tensor<32x64xf32>, tensor<64x96xf32>) ...
    %e = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 16, 96] ...
    // After: one generic over (b, s, n, k) on the [2, 16, 64] input
    %y = linalg.generic ... ins(%x, %w : tensor<2x16x64xf32>, tensor<64x96xf32>)
        outs(%init : tensor<2x16x96xf32>) ...
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def HoistTensorConstants : Pass<"hoist-tensor-constants", "::mlir::ModuleOp"> {
  let summary = "Turns tensor constants into trailing function arguments";
  let description = [{
    Frontends bake weights into programs as tensor constants (`dense<...>`,
    or `dense_resource<...>` whose data is often elided from dumps). A block
    program takes arrays as arguments only, so every non-splat tensor
    constant of a function without callers becomes a new trailing argument
    marked `{blockbuster.hoisted_constant}`, in program order. Splat
    constants stay: `convert-linalg-to-block` reads them as fills.

    A `dense_resource<KEY>` keeps its key as the marker's value,
    `{blockbuster.hoisted_constant = "KEY"}` (not MLIR's elision marker
    `__elided__`, which names nothing): the name that binds the weight at run
    time. torch-mlir's keys are `torch_tensor_<shape>_<dtype>`;
    `blockbuster.torch` exports with the module's `state_dict` names instead.
    `bb-compile` writes the key into the artifact's manifest (`"constant"`,
    docs/Artifact.md) and the C API's signature reports it.

    `bb-run` runs this on the input before both the reference and the
    Blockbuster path, so both see the same (random) values for the weights.

    ```mlir
    // Before
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
      ...
    // After
    func.func @f(%x: tensor<4xf32>,
                 %w: tensor<4xf32> {blockbuster.hoisted_constant}) -> tensor<4xf32> {

    // Before
    %w = arith.constant dense_resource<"proj.weight"> : tensor<8x4xf32>
    // After
    func.func @g(%x: tensor<4xf32>,
                 %w: tensor<8x4xf32> {blockbuster.hoisted_constant = "proj.weight"}) ...
    ```
  }];
}

#endif // BLOCKBUSTER_CONVERSION_LINALGTOBLOCK_PASSES_TD
