//===- WarpgroupPrologue.h - A tiles a warpgroup GEMM computes --*- C++ -*-===//
//
// A block of LayerNorm + matmul or RMSNorm + matmul computes the A tile of
// its dot itself: in every k step an elementwise op reads the raw tile of X
// from global memory, the row statistics (loop-invariant, one value per
// row) and the feature weights (one value per column of the step), and
// writes the normalised tile, rounded to 16 bits, that the dot reads. The
// Hopper schedule of gpu-warpgroup-matmul keeps that exact: TMA stages the
// raw X tile in the ring like a plain A operand, the warpgroup rewrites the
// slot in place (the op's body per element, the same f32 arithmetic and the
// same rounding) and wgmma reads the rewritten slot.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPPROLOGUE_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPPROLOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <vector>

namespace blockbuster {

/// The elementwise op that computes a dot's A tile in the block.
struct WarpgroupPrologue {
  mlir::linalg::GenericOp op;
  // The raw tile X[m0 : m0 + tile, k : k + step] the op reads at (m, k): a
  // unit-stride view of a global array of the tile's element type.
  mlir::memref::SubViewOp raw;
  mlir::OpOperand *rawInput = nullptr;
  // Inputs read at (m): loop-invariant, one value per row of the tile.
  llvm::SmallVector<mlir::OpOperand *, 2> rowInputs;
  // Inputs read at (k): views of rank-1 global arrays at the raw tile's k
  // offset; the lowering reads their sources at the global k.
  llvm::SmallVector<mlir::OpOperand *, 2> columnInputs;
};

/// The precondition: the dot's A operand (`dot` in the same block as the
/// op, `reduce` the loop or dot that the GEMM schedule replaces) is a
/// workgroup tile of the block written only by such an op before the dot
/// and read only by the dot; the op's body is pure scalar work that ignores
/// its output's old value and its indices, and its result has the element
/// type of the raw tile.
mlir::FailureOr<WarpgroupPrologue>
matchWarpgroupPrologue(mlir::linalg::GenericOp dot, mlir::Operation *reduce);

/// The transformation, in the ring of gpu-warpgroup-matmul: each slot's A
/// part is a 128 x 64 tile of 16-bit elements stored with the 128-byte TMA
/// swizzle (the 16-byte chunk c of row r at chunk c ^ (r % 8)). Each
/// warpgroup rewrites the rows its own wgmma reads (all 128 with one
/// warpgroup, rows 64 w to 64 w + 63 for warpgroup w of two): thread t of
/// a warpgroup owns chunk t % 8 of its rows t / 8 + 16 j (j < 8 or j < 4).
/// The row statistics are computed once, before the mainloop, and the 8
/// threads of each quarter warp touch 8 different chunks of one row
/// (16-byte accesses without bank conflicts).
class WarpgroupPrologueLowering {
public:
  /// `reduce` is the loop or dot the schedule replaces, `tileRows` x
  /// `stepK` the A part of a slot that one of the block's `warpgroups`
  /// rewrites, `kTotal` the extent of K.
  WarpgroupPrologueLowering(mlir::RewriterBase &rewriter,
                            const WarpgroupPrologue &prologue,
                            mlir::Operation *reduce, int64_t tileRows,
                            int64_t stepK, int64_t kTotal,
                            int64_t warpgroups);

  /// Before the mainloop: the part of the body that depends on the row
  /// inputs alone, for each of the thread's rows (in registers).
  void emitRowValues();
  /// In the mainloop, once k step `step` has landed in `slot` (a view of
  /// the warpgroup's rows of the slot's A part): rewrites it in place with
  /// the op's body, then
  /// `fence.proxy.async` so that wgmma (the async proxy) sees the stores.
  /// Columns past K become zeros.
  void emitSlot(mlir::Value slot, mlir::Value step);
  /// Erases the op and its tile where the schedule's erasure of `reduce`
  /// did not (a whole-k dot); call after erasing `reduce`.
  void eraseLeftovers();

private:
  enum class Part { Invariant, Row, Column, Element };
  mlir::Value index(int64_t value);
  /// Clones the ops of `part` of the body into `mapping`.
  void cloneBody(Part part, mlir::IRMapping &mapping);

  mlir::RewriterBase &rewriter;
  WarpgroupPrologue p;
  mlir::Location loc;
  int64_t tileRows, stepK, kTotal, warpgroups;
  llvm::DenseMap<mlir::Operation *, Part> parts;
  // Thread t's chunk (t % 8), its first row (t / 8) in its warpgroup's
  // rows, the chunk's place in the swizzled row, and the warpgroup's first
  // row in the block's tile (null with one warpgroup).
  mlir::Value chunk, firstRow, swizzledChunk, warpgroupRow;
  // The values of the invariant part, and per row of the thread those of
  // the row part too.
  mlir::IRMapping invariant;
  std::vector<mlir::IRMapping> rows;
  // The tile the op writes; whether erasing `reduce` leaves them.
  mlir::Operation *tileAlloc;
  bool opOutsideReduce;
};

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_WARPGROUPPROLOGUE_H
