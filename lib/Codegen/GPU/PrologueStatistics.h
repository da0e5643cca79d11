//===- PrologueStatistics.h - Row statistics of a GEMM's A tile -*- C++ -*-===//
//
// RMSNorm + matmul: the normalised A tile of the GEMM block reads one row
// input, the sum of squares of X's rows, which the fused program computes
// before the GEMM (a kernel of its own over the rows, or a k loop of the
// block before its mainloop). Where the register-A prologue leaves the row
// factor (rstd) to the accumulator, that sum is needed only after the
// mainloop, and the mainloop already holds every element of the block's
// rows of X in registers (wgmma's A fragments): the sum can be accumulated
// there, and X is read once. These are the matchers of that form, shared by
// gpu-sink-prologue-statistics (the statistics kernel moved into the GEMM
// block) and gpu-warpgroup-matmul (its k loop folded into the mainloop).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_PROLOGUESTATISTICS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_PROLOGUESTATISTICS_H

#include "WarpgroupPrologue.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace blockbuster {

/// Whether the index `a` computes what `b` does: equal constants, the same
/// value, one that `equal` maps to `b`, or the same pure op (name,
/// attributes) of operands equivalent in turn (the index arithmetic of two
/// loops or grids over the same steps).
bool equivalentIndex(mlir::OpFoldResult a, mlir::OpFoldResult b,
                     const llvm::DenseMap<mlir::Value, mlir::Value> &equal);

/// `out[m] += extf(in[m, k]) * extf(in[m, k])` over all of [m, k] (the
/// sum of squares of a tile's rows): the input, or null.
mlir::Value sumOfSquaresInput(mlir::linalg::GenericOp op);

/// `out += in` elementwise over a rank-1 tile.
bool isRowAccumulation(mlir::linalg::GenericOp op, mlir::Value in,
                       mlir::Value out);

/// A k loop that accumulates the sum of squares of a tile of X's rows into
/// a rank-1 f32 tile `tile` of the block, zero-filled by `fill` before it:
/// each iteration views X[m0 : m0 + rows, k : k + step], zero-fills an f32
/// tile, reduces `extf(x) * extf(x)` along k into it and adds it into
/// `tile`.
struct StatisticsLoop {
  mlir::linalg::FillOp fill;
  mlir::scf::ForOp loop;
};

/// The precondition: `tile` is accumulated as above by a loop in the same
/// block as `tile`, whose view of X is the prologue's raw tile of the
/// mainloop `reduce` (the same array, offsets and sizes, where the values
/// of `equal` stand for those they map to, the loops' induction variables
/// for each other) and whose bounds are `reduce`'s: the sum over all of K.
/// Other users of `tile` are the caller's to check.
mlir::FailureOr<StatisticsLoop>
matchStatisticsLoop(mlir::Value tile, const WarpgroupPrologue &prologue,
                    mlir::scf::ForOp reduce,
                    llvm::DenseMap<mlir::Value, mlir::Value> equal =
                        llvm::DenseMap<mlir::Value, mlir::Value>());

/// The statistics of a register-A prologue that gpu-warpgroup-matmul can
/// accumulate in its mainloop: the prologue's only row input is a
/// workgroup tile of the block, accumulated by a StatisticsLoop before the
/// mainloop and read only by the prologue, and the body uses it only in
/// the row factor that the accumulator takes
/// (WarpgroupPrologueLowering::leavesRowInputToAccumulator).
struct PrologueStatistics {
  mlir::memref::AllocOp tile;
  StatisticsLoop accumulation;
};

mlir::FailureOr<PrologueStatistics>
matchPrologueStatistics(const WarpgroupPrologue &prologue,
                        mlir::Operation *reduce);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_PROLOGUESTATISTICS_H
