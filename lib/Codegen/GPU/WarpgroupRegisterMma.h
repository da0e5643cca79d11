//===- WarpgroupRegisterMma.h - wgmma on lists of registers -----*- C++ -*-===//
//
// wgmma.mma_async m64nNk16 (f32 += bf16 x bf16, or f16 x f16; m64nNk8
// tf32 x tf32 for an f32 element type, both operands K-major) on an
// accumulator held as a list of N / 2 f32 values per thread, in the layout
// of the instruction: thread t of the warpgroup holds, as value 4 j + q,
// row 16 (t / 32) + (t % 32) / 4 + 8 (q / 2) and column 8 j + 2 (t % 4) +
// q % 2 (the m16n8 mma.sync accumulator layout of each warp, n8 tiles side
// by side). The B operand is a shared-memory matrix descriptor
// (TmaRing.h); A is one too, or four 32-bit registers per thread holding
// the warp's 16 x 16 A fragment in the m16n8k16 mma.sync layout.
//
// MLIR 22's nvvm.wgmma.mma_async takes descriptors only, and its
// accumulator is one struct value; both forms are emitted as inline PTX
// here, each accumulator value its own operand.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPREGISTERMMA_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPREGISTERMMA_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace blockbuster {

/// acc += A B with A and B in shared memory (`descA`, `descB`); A is
/// K-major (its rows are M), B K-major unless `transposeB` (its rows are
/// K, "transposed" in wgmma's terms). Returns the new accumulator values.
llvm::SmallVector<mlir::Value>
wgmmaSharedA(mlir::OpBuilder &b, mlir::Location loc,
             llvm::ArrayRef<mlir::Value> acc, mlir::Value descA,
             mlir::Value descB, mlir::Type elementType, bool transposeB);

/// acc += A B with A from registers (`a`: four i32, each two 16-bit
/// elements: rows r and r + 8 of the warp's 16 at k 2 (t % 4) and + 1, then
/// the same at k + 8; for tf32 one element each: rows r and r + 8 at k t %
/// 4, then the same at k + 4) and B in shared memory.
llvm::SmallVector<mlir::Value>
wgmmaRegisterA(mlir::OpBuilder &b, mlir::Location loc,
               llvm::ArrayRef<mlir::Value> acc, llvm::ArrayRef<mlir::Value> a,
               mlir::Value descB, mlir::Type elementType, bool transposeB);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPREGISTERMMA_H
