//===- TileContractions.h - Dots of a block as Linalg contractions --*- C++ -*-===//
//
// What the lowerings of block.dot on the GPU (gpu-contractions-to-mma for
// 16-bit operands, gpu-contractions-to-fma for the others) share: matching
// the contraction linalg.generic that convert-block-to-linalg makes of a
// block.dot, the extents of its loops, and the fold of its result into the
// reduce state it is added to.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_TILECONTRACTIONS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_TILECONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace blockbuster {

/// A tile contraction C[b.., m, n] += ext(A[b.., m, k]) * ext(B[b.., k, n])
/// on buffers, inside a block grid (each ext optional), with an f32 C.
struct TileContraction {
  mlir::linalg::GenericOp op;
  llvm::SmallVector<unsigned> batch;
  unsigned m, n, k;
};

std::optional<TileContraction> matchTileContraction(mlir::linalg::GenericOp op);

/// Whether `op` is a vector-matrix product C[n] += ext(x[k]) * ext(W[k, n])
/// on buffers, inside a block grid, with an f32 C: the dot of a block
/// without a rows axis (a decode block at M1, whose rows dimension the
/// converter dropped). matchTileContraction does not take it (no m).
bool isTileVectorMatrixProduct(mlir::linalg::GenericOp op);

/// The extent of a loop of a Linalg op and its constant upper bound.
struct LoopExtent {
  mlir::Value value;
  int64_t bound;
};

/// The extent of loop `dim` of `op`, read from the first operand whose
/// size along it has a constant upper bound; none if no operand has one.
std::optional<LoopExtent> loopExtent(mlir::OpBuilder &b,
                                     mlir::linalg::GenericOp op, unsigned dim);

/// Indices into an operand with indexing map `map` (a projected
/// permutation), loop dimension d having the value `dimValues.lookup(d)`.
llvm::SmallVector<mlir::Value>
operandIndices(mlir::AffineMap map,
               const llvm::DenseMap<unsigned, mlir::Value> &dimValues);

/// The dot's result tile is often a fresh buffer: zero-filled, written by
/// the dot, then added elementwise into a reduce state `acc` (one k step of
/// a block.reduce). A lowering can then add its results to `acc` directly:
/// no fill, no second pass, two barriers fewer.
struct AccumulationFold {
  mlir::Value acc;
  mlir::Operation *fill, *add;
};

/// The fold of `dot`'s result, when the result buffer is used by exactly
/// such a fill, the dot and such an add, and nothing between the dot and
/// the add touches `acc`.
std::optional<AccumulationFold> findAccumulationFold(mlir::linalg::GenericOp dot);

/// Erases the contraction of `fold` (if any: also its fill, its add and its
/// result buffer) once it has been lowered.
void eraseLoweredContraction(mlir::RewriterBase &rewriter,
                             mlir::linalg::GenericOp dot,
                             const std::optional<AccumulationFold> &fold);

/// Index arithmetic at one location, folded where the operands are
/// constant: what the register-tile lowerings of dots (gpu-contractions-to-mma,
/// gpu-flash-attention) compute thread, row and column positions with.
class IndexArithmetic {
public:
  IndexArithmetic(mlir::RewriterBase &rewriter, mlir::Location loc)
      : rewriter(rewriter), loc(loc) {}

  mlir::Value index(int64_t value);
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, int64_t b);
  /// Unsigned: every index these lowerings divide is a non-negative
  /// position.
  mlir::Value div(mlir::Value a, int64_t b);
  mlir::Value rem(mlir::Value a, int64_t b);
  /// a < bound, unsigned.
  mlir::Value below(mlir::Value a, mlir::Value bound);

private:
  mlir::RewriterBase &rewriter;
  mlir::Location loc;
};

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_TILECONTRACTIONS_H
