//===- Passes.td - Passes on block programs ----------------*- tablegen -*-===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_TD
#define BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BlockReport : Pass<"block-report", "::mlir::ModuleOp"> {
  let summary = "Prints the fusion report of every block program as JSON";
  let description = [{
    For each `block.program` in the module, in order, writes one JSON object
    with the figures that fusion is judged by (docs/FusionReport.md):

    - `kernels`: number of top-level maps (one kernel each);
    - `buffered_edges`: (array, reading kernel) pairs where one kernel loads
      an array another kernel wrote: each is a round trip through global
      memory;
    - `global_bytes`: bytes loaded and yielded, each load counted once per
      block of the enclosing maps and reduces whose axes it does not have;
    - `flops`: dots count 2 per multiply-add, other compute 1 per element;
    - `local_bytes_peak`: the largest peak, over kernels, of the bytes of
      tiles live at once in one instance;

    plus `intermediates` (arrays written by one kernel and read by another)
    and `per_kernel` detail. Block sizes come from `block-sizes`, else from
    the axis table, else `default-block-size`. The IR is not changed.

    ```
    bb-opt attention.mlir --block-report='block-sizes=M=64,N=64' -o /dev/null
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the JSON to ('-' for standard output)">,
    ListOption<"blockSizeOverrides", "block-sizes", "std::string",
               "Block sizes as AXIS=SIZE, overriding the axis table">,
    Option<"defaultBlockSize", "default-block-size", "int64_t",
           /*default=*/"128",
           "Block size of tiled axes that have none in the table">
  ];
}

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_PASSES_TD
