//===- ProgramShadow.cpp - A program's last kept state, unit by unit ------===//
//
// Copies go unit by unit between the program and its shadow. A unit is put
// right after the copy of its predecessor, or after the counterpart of an
// unchanged predecessor: unchanged units keep their relative order (the
// worklist reports units that the rules' re-sorts moved as changed), so the
// result has the order of the source. Operands that name values of other
// units or arguments of the program map to the counterparts of those.
//
//===----------------------------------------------------------------------===//

#include "ProgramShadow.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace blockbuster::block;

ProgramShadow::ProgramShadow(ProgramOp live) { rebuild(live); }

void ProgramShadow::rebuild(ProgramOp live) {
  shadow = live.clone();
  toShadow.clear();
  toLive.clear();
  for (auto [liveUnit, shadowUnit] :
       llvm::zip(live.getBody().front(), shadow->getBody().front())) {
    toShadow[&liveUnit] = &shadowUnit;
    toLive[&shadowUnit] = &liveUnit;
  }
}

OwningOpRef<ProgramOp> ProgramShadow::copy() { return shadow->clone(); }

/// The top-level op of `top` that `op` is or is nested in.
static Operation *getUnitIn(Operation *op, Block &top) {
  while (op && op->getBlock() != &top)
    op = op->getParentOp();
  return op;
}

bool ProgramShadow::copyUnits(Block &from, Block &to,
                              ArrayRef<Operation *> units,
                              const DenseMap<Operation *, Operation *> &counterpart,
                              const DenseSet<Operation *> &replaced,
                              DenseMap<Operation *, Operation *> &copies) {
  auto lookup = [&](Operation *unit) -> Operation * {
    if (Operation *copy = copies.lookup(unit))
      return copy;
    if (replaced.contains(unit))
      return nullptr; // Being replaced and not copied (yet): out of order.
    return counterpart.lookup(unit);
  };
  OpBuilder builder(to.getParentOp()->getContext());
  for (Operation *unit : units) {
    if (Operation *prev = unit->getPrevNode()) {
      Operation *after = lookup(prev);
      if (!after)
        return false;
      builder.setInsertionPointAfter(after);
    } else {
      builder.setInsertionPointToStart(&to);
    }
    IRMapping mapping;
    bool ok = true;
    unit->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (mapping.contains(operand))
          continue;
        if (auto argument = dyn_cast<BlockArgument>(operand)) {
          if (argument.getOwner() == &from)
            mapping.map(operand, to.getArgument(argument.getArgNumber()));
          continue;
        }
        Operation *definer = operand.getDefiningOp();
        if (definer->getBlock() != &from)
          continue; // Inside the unit: the clone maps it.
        Operation *source = lookup(definer);
        if (!source || source->getNumResults() != definer->getNumResults()) {
          ok = false;
          return;
        }
        mapping.map(operand, source->getResult(
                                 cast<OpResult>(operand).getResultNumber()));
      }
    });
    if (!ok)
      return false;
    copies[unit] = builder.clone(*unit, mapping);
  }
  return true;
}

/// Replaces the uses of `olds` (top-level ops of one block) that `copies`
/// has copies for with those copies, then erases `olds`. Fails, changing
/// nothing, when an op that stays would keep using one of `olds`.
static bool replaceUnits(ArrayRef<Operation *> olds,
                         const DenseMap<Operation *, Operation *> &copyOf,
                         function_ref<void(Operation *)> forget) {
  DenseSet<Operation *> going(olds.begin(), olds.end());
  for (Operation *old : olds) {
    Operation *copy = copyOf.lookup(old);
    if (copy && copy->getNumResults() == old->getNumResults())
      continue;
    for (Operation *user : old->getUsers())
      if (!going.contains(getUnitIn(user, *old->getBlock())))
        return false;
  }
  for (Operation *old : olds)
    if (Operation *copy = copyOf.lookup(old))
      old->replaceAllUsesWith(copy);
  for (Operation *old : olds) {
    forget(old);
    old->dropAllReferences();
  }
  for (Operation *old : olds) {
    old->dropAllUses();
    old->erase();
  }
  return true;
}

void ProgramShadow::sync(ProgramOp live, const FusionWorklist::Changes &changes) {
  // Replication adds axes to the table (renamed copies of reduced axes).
  (*shadow).setAxesAttr(live.getAxesAttr());
  Block &liveTop = live.getBody().front();
  Block &shadowTop = shadow->getBody().front();
  // Shadow units of units that changed or went.
  SmallVector<Operation *> stale;
  DenseMap<Operation *, Operation *> staleFor; // Shadow unit -> live unit.
  for (Operation *gone : changes.erased)
    if (Operation *unit = toShadow.lookup(gone)) {
      stale.push_back(unit);
      toShadow.erase(gone);
      toLive.erase(unit);
    }
  SmallVector<Operation *> changed(changes.changed.begin(),
                                   changes.changed.end());
  llvm::sort(changed, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  DenseSet<Operation *> replaced(changed.begin(), changed.end());
  for (Operation *unit : changed)
    if (Operation *old = toShadow.lookup(unit)) {
      stale.push_back(old);
      staleFor[old] = unit;
    }
  DenseMap<Operation *, Operation *> copies; // Live unit -> new shadow unit.
  if (!copyUnits(liveTop, shadowTop, changed, toShadow, replaced, copies))
    return rebuild(live);
  DenseMap<Operation *, Operation *> copyOf;
  for (auto [old, unit] : staleFor)
    copyOf[old] = copies.lookup(unit);
  if (!replaceUnits(stale, copyOf, [](Operation *) {}))
    return rebuild(live);
  for (Operation *unit : changed) {
    if (Operation *old = toShadow.lookup(unit))
      toLive.erase(old);
    toShadow[unit] = copies[unit];
    toLive[copies[unit]] = unit;
  }
}

ProgramOp ProgramShadow::restore(ProgramOp live,
                                 const FusionWorklist::Changes &changes,
                                 FusionWorklist &worklist,
                                 function_ref<void(Operation *)> forget) {
  Block &liveTop = live.getBody().front();
  Block &shadowTop = shadow->getBody().front();
  // Shadow units to put back: those of units that changed or went.
  llvm::SetVector<Operation *> wanted;
  for (Operation *gone : changes.erased)
    if (Operation *unit = toShadow.lookup(gone)) {
      wanted.insert(unit);
      toShadow.erase(gone);
      toLive.erase(unit);
    }
  SmallVector<Operation *> changed(changes.changed.begin(),
                                   changes.changed.end());
  DenseMap<Operation *, Operation *> shadowOf;
  for (Operation *unit : changed)
    if (Operation *old = toShadow.lookup(unit)) {
      wanted.insert(old);
      shadowOf[unit] = old;
    }
  SmallVector<Operation *> order = wanted.takeVector();
  llvm::sort(order, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  DenseSet<Operation *> replaced(order.begin(), order.end());
  DenseMap<Operation *, Operation *> copies; // Shadow unit -> new live unit.
  bool ok = copyUnits(shadowTop, liveTop, order, toLive, replaced, copies);
  DenseMap<Operation *, Operation *> copyOf;
  for (auto [unit, old] : shadowOf)
    copyOf[unit] = copies.lookup(old);
  if (ok) {
    for (Operation *unit : changed)
      worklist.forgetUnit(unit);
    ok = replaceUnits(changed, copyOf, forget);
  }
  if (!ok) {
    // Not of the expected shape: the whole shadow replaces the program.
    OpBuilder builder(live);
    auto whole = cast<ProgramOp>(builder.clone(**shadow));
    for (Operation &unit : liveTop)
      forget(&unit);
    live->erase();
    for (Operation &unit : whole.getBody().front())
      forget(&unit);
    worklist.reset(whole, /*pending=*/false);
    rebuild(whole);
    return whole;
  }
  for (Operation *unit : changed)
    if (Operation *old = toShadow.lookup(unit)) {
      toShadow.erase(unit);
      toLive.erase(old);
    }
  for (auto [old, copy] : copies) {
    toShadow[copy] = old;
    toLive[old] = copy;
    forget(copy);
    worklist.addSettledUnit(copy);
  }
  // The axes a rolled-back replication added go too.
  live.setAxesAttr((*shadow).getAxesAttr());
  return live;
}
