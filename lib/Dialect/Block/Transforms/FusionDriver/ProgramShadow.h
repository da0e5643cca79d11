//===- ProgramShadow.h - A program's last kept state, unit by unit -*- C++ -*-===//
//
// block-fuse's extend step tries a replication, re-runs the main loop and
// keeps the result only when the estimate drops; otherwise it goes back to
// the last kept state. Copying the whole program for every kept state and
// restoring the whole program for every rolled-back try made the step
// quadratic. The shadow is one copy of the last kept state whose top-level
// ops (units) correspond one to one to the program's unchanged units: a kept
// try copies only the units it changed into the shadow, a rolled-back try
// copies only the corresponding units back.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_PROGRAMSHADOW_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_PROGRAMSHADOW_H

#include "FusionWorklist.h"

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"

namespace blockbuster::block {

class ProgramShadow {
public:
  /// A shadow of `live` as it is now.
  explicit ProgramShadow(ProgramOp live);

  /// A copy of the shadow (a snapshot of the last kept state).
  mlir::OwningOpRef<ProgramOp> copy();

  /// `live` changed by `changes` since the last sync or restore and is now
  /// the state to keep: the shadow follows.
  void sync(ProgramOp live, const FusionWorklist::Changes &changes);

  /// Undoes `changes` in `live`: puts back copies of the shadow's units
  /// (without the rewriter; `worklist` learns of them as settled units).
  /// Returns the restored program: `live` itself, or a whole copy of the
  /// shadow in its place when the changes are not of the expected shape.
  /// `erased` hears of every top-level op that goes.
  ProgramOp restore(ProgramOp live, const FusionWorklist::Changes &changes,
                    FusionWorklist &worklist,
                    llvm::function_ref<void(mlir::Operation *)> erased);

private:
  void rebuild(ProgramOp live);
  static bool copyUnits(mlir::Block &from, mlir::Block &to,
                        llvm::ArrayRef<mlir::Operation *> units,
                        const llvm::DenseMap<mlir::Operation *,
                                             mlir::Operation *> &counterpart,
                        const llvm::DenseSet<mlir::Operation *> &replaced,
                        llvm::DenseMap<mlir::Operation *, mlir::Operation *>
                            &copies);

  mlir::OwningOpRef<ProgramOp> shadow;
  /// Unchanged units of the program and their shadow units, both ways.
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> toShadow, toLive;
};

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_PROGRAMSHADOW_H
