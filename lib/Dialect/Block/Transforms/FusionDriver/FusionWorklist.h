//===- FusionWorklist.h - block-fuse's ordered per-rule worklists -*- C++ -*-===//
//
// block-fuse applies, at every step, the first rule (in priority order) that
// matches an op, and of the ops the one that comes first breadth-first. Done
// literally, every step re-tries every op: quadratic in the program. The
// worklist keeps, per rule, the ops that might match, ordered breadth-first;
// an op leaves a rule's list when the rule fails on it and comes back when a
// rewrite touches its kernel or a neighbour (the kernels it reads from, the
// ones reading it, the ones reading an array it reads): only those can start
// matching. A step then costs what changed, and the rule and op picked are
// the ones the literal driver would pick.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONWORKLIST_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONWORKLIST_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <set>
#include <memory>
#include <vector>

namespace blockbuster::block {

class FusionWorklist : public mlir::RewriterBase::Listener {
public:
  /// Worklists for the rules numbered `rules`.
  explicit FusionWorklist(llvm::ArrayRef<unsigned> rules);
  ~FusionWorklist() override;

  /// Starts over on `program`: every op of it is on every rule's list when
  /// `pending`, on none (a fixed point of the rules) otherwise.
  void reset(ProgramOp program, bool pending);

  /// The first op (breadth-first) on `rule`'s list, or null.
  mlir::Operation *front(unsigned rule) const;
  /// `rule` did not match the front op: it leaves the list.
  void popFront(unsigned rule);

  /// After a rewrite: the kernels it touched and their neighbours go back on
  /// every list.
  void settle();

  /// Top-level ops inserted, modified or moved by rewrites since the last
  /// call (those alive now, in no particular order), and the ones erased
  /// meanwhile (no longer valid ops: keys for the caller's maps only).
  struct Changes {
    llvm::SetVector<mlir::Operation *> changed;
    llvm::SmallVector<mlir::Operation *> erased;
  };
  Changes takeChanges();

  /// For edits made without the rewriter at a fixed point of the rules:
  /// top-level op `op` is about to be erased.
  void forgetUnit(mlir::Operation *op);
  /// Top-level op `op` was inserted: placed, on no list.
  void addSettledUnit(mlir::Operation *op);

  void notifyOperationInserted(mlir::Operation *op,
                               mlir::OpBuilder::InsertPoint) override;
  void notifyOperationModified(mlir::Operation *op) override;
  void notifyOperationReplaced(mlir::Operation *op,
                               mlir::ValueRange) override;
  void notifyOperationErased(mlir::Operation *op) override;

private:
  struct Unit;
  /// The ops of one unit at one depth that a rule has yet to try, in
  /// breadth-first order: a unit's ops at one depth are contiguous in the
  /// order of the whole program (depth first, then the unit's position),
  /// so a list holds slices, not single ops.
  struct Slice {
    Unit *unit;
    unsigned depth;
    size_t next = 0;
    bool listed = false;
  };
  struct SliceLess {
    bool operator()(const Slice *a, const Slice *b) const;
  };
  /// A top-level op (kernel, view, return): its position key (increasing in
  /// program order among keyed units), its ops level by level (breadth
  /// first, each level in program order), and its slices (one per rule and
  /// level).
  struct Unit {
    double key = 0;
    bool keyed = false;
    llvm::SmallVector<llvm::SmallVector<mlir::Operation *>> levels;
    std::vector<std::unique_ptr<Slice>> slices;
  };

  void record(mlir::Operation *op);
  void collectNeighbours(mlir::Operation *unit);
  void dropEntries(Unit &unit);
  void addEntries(mlir::Operation *op, Unit &unit);
  void assignKey(mlir::Operation *op);
  void renumber();

  llvm::SmallVector<unsigned> rules;
  std::map<unsigned, std::set<Slice *, SliceLess>> lists;
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<Unit>> units;
  mlir::Block *top = nullptr;
  /// Units a rewrite touched, and the ones to re-queue at the next settle.
  llvm::SetVector<mlir::Operation *> touched;
  llvm::SetVector<mlir::Operation *> toRequeue;
  Changes changes;
};

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONWORKLIST_H
