//===- Passes.td - Passes of the CPU checker ---------------*- tablegen -*-===//

#ifndef BLOCKBUSTER_RUNTIME_CPU_PASSES_TD
#define BLOCKBUSTER_RUNTIME_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ReferencePrecision
    : Pass<"reference-precision", "::mlir::func::FuncOp"> {
  let summary = "Computes a Linalg reference in wider floats";
  let description = [{
    The rewrite `bb-run` applies to a Linalg reference before upstream's
    lowering (docs/CPUExecution.md), keeping the function's signature:
    arguments are extended on entry, results rounded on return, and the
    conversions in between disappear.

    - `to=f32` (`promoteNarrowFloatsToF32`): every f16 and bf16 value is
      computed in f32. Where the program rounds to a narrow type (a `truncf`,
      a Linalg op writing a narrow tensor) the value is still rounded and
      extended again, so only the arithmetic is wider. Upstream's lowering of
      the program as written accumulates long f16 sums in f16, where terms
      below half an ulp of the running sum vanish; a reference must not be
      the less accurate side of a comparison.
    - `to=f64` (`promoteF32ToF64`): every f32 value is computed in f64 and
      nothing in between is rounded back: the oracle of `bb-run
      --f64-oracle`, which stands for the exact result.

    A function with an op that cannot be promoted is an error.
  }];
  let options = [
    Option<"to", "to", "std::string", /*default=*/"\"f32\"",
           "f32: f16 and bf16 values in f32; f64: f32 values in f64">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // BLOCKBUSTER_RUNTIME_CPU_PASSES_TD
