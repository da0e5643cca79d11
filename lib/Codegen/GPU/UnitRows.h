//===- UnitRows.h - A unit rows dimension for vector blocks -----*- C++ -*-===//
//
// At M1 (batch-1 decode) the converter drops the unit rows dimension of a
// norm + matmul or a plain GEMV: the activation is a rank-1 x[K] (a view of
// the [1, K] argument), the dot a vector-matrix product x[k] * W[k, n], the
// norm's statistics 0-d tiles. gpu-decode-gemv and the row schedule of its
// statistics (RowKernels.h) are written for rows: A[R, K], statistics [R].
// Rather than teach both a second, rowless form, gpu-decode-gemv gives such
// a block its unit rows dimension back (R = 1, one real row of the mma m16
// tile, which the schedule zero-pads past R anyway) and then lowers it as
// any decode block.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_UNITROWS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_UNITROWS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace blockbuster {

/// Rewrites `ops`, the top-level ops of a block grid from its first op up to
/// and including the loop of a vector-matrix product
/// (isTileVectorMatrixProduct), into the ops of a block of one row:
///
///   - every workgroup buffer the ops allocate gets a leading unit
///     dimension: a new allocation, or, where code after `ops` uses the
///     buffer (the accumulator tile), a `memref.expand_shape` of it;
///   - every view of the activation (a `memref.collapse_shape` in the host
///     function of a [1, .., 1, K] array into [K]) becomes the same view of
///     the array, its first unit dimension kept;
///   - every linalg.fill and linalg.generic among or in `ops` gets the new
///     buffers and views, a generic a leading parallel loop r of extent 1
///     that indexes them (its other operands, the weights and the norm's
///     vectors, keep their maps): the product becomes C[r, n] += x[r, k] *
///     W[k, n], which matchTileContraction takes, the statistics [1]
///     tiles of one row.
///
/// Nothing changes for the code after `ops`. Fails (`reason` says why,
/// `ops` may then be partly rewritten: callers work on a copy) where an op
/// other than these uses a buffer or view that gets a dimension, or where
/// the product's vector is neither computed in the block nor a view of the
/// activation.
mlir::LogicalResult addUnitRows(mlir::RewriterBase &rewriter,
                                llvm::ArrayRef<mlir::Operation *> ops,
                                std::string &reason);

/// The ops addUnitRows takes in `grid`: its top-level ops from the first
/// up to and including its dot loop (the last top-level loop holding a
/// tile contraction or a vector-matrix product) where that loop's product
/// is a vector-matrix product; none otherwise. gpu-decode-row-factor and
/// gpu-decode-gemv give such blocks their unit rows back.
llvm::SmallVector<mlir::Operation *>
opsUpToVectorMatrixLoop(mlir::scf::ForallOp grid);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_UNITROWS_H
