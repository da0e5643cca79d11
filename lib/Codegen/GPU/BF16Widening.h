//===- BF16Widening.h - bf16 to f32 as one integer op -----------*- C++ -*-===//
//
// A bf16 is the upper half of the f32 of the same value, so widening one of
// a 32-bit pair of bf16 values is one integer op on the pair's word: the low
// element shifted left by 16, the high one masked with 0xffff0000.
// `arith.extf` of a vector element costs the high element a byte permute
// and a shift instead (`PRMT` + `IMAD.U32`/`SHF` in SASS). Bit-exact.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_BF16WIDENING_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_BF16WIDENING_H

#include "mlir/IR/Builders.h"

namespace blockbuster {

/// The f32 of element `e` (0: the low half) of `word`, an i32 holding two
/// bf16 values.
mlir::Value widenBF16Half(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value word, int64_t e);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_BF16WIDENING_H
