//===- FusionWorklist.cpp - block-fuse's ordered per-rule worklists -------===//
//
// Each rule's list is a set of slices ordered breadth-first: by depth, then
// by the position of the slice's top-level op (unit); inside a slice, ops
// are in the order of their (region, block, op) paths from the unit down.
// That is exactly the order of a breadth-first walk of the program (level by
// level, each level in the order of the parents), so the front of a list is
// the op the literal driver would try first.
//
// Positions of units are stored keys, not live order queries: a set must not
// see its order change under it. Keys of untouched units stay valid because
// their relative order does not change; touched units leave the lists before
// they get a new key between their neighbours'. Every change reaches the
// worklist through the rewriter, moves included (the rules' topological
// re-sorts move ops with the rewriter: restoreOrder), so a unit that moved
// is a touched one.
//
//===----------------------------------------------------------------------===//

#include "FusionWorklist.h"

using namespace mlir;
using namespace blockbuster::block;

/// Gap between keys after a reset or renumbering: room for about fifty
/// insertions at one place before midpoints run out of precision.
static constexpr double kKeyGap = 1024.0;

bool FusionWorklist::SliceLess::operator()(const Slice *a,
                                           const Slice *b) const {
  if (a->depth != b->depth)
    return a->depth < b->depth;
  return a->unit->key < b->unit->key;
}

FusionWorklist::FusionWorklist(ArrayRef<unsigned> rules)
    : rules(rules.begin(), rules.end()) {
  for (unsigned rule : rules)
    lists[rule];
}

FusionWorklist::~FusionWorklist() = default;

void FusionWorklist::reset(ProgramOp program, bool pending) {
  for (auto &[rule, list] : lists)
    list.clear();
  units.clear();
  touched.clear();
  toRequeue.clear();
  changes = Changes();
  top = &program.getBody().front();
  double key = 0;
  for (Operation &op : *top) {
    auto unit = std::make_unique<Unit>();
    unit->key = key;
    unit->keyed = true;
    key += kKeyGap;
    if (pending)
      addEntries(&op, *unit);
    units[&op] = std::move(unit);
  }
}

Operation *FusionWorklist::front(unsigned rule) const {
  const auto &list = lists.at(rule);
  if (list.empty())
    return nullptr;
  const Slice *slice = *list.begin();
  return slice->unit->levels[slice->depth - 1][slice->next];
}

void FusionWorklist::popFront(unsigned rule) {
  auto &list = lists.at(rule);
  Slice *slice = *list.begin();
  if (++slice->next == slice->unit->levels[slice->depth - 1].size()) {
    list.erase(list.begin());
    slice->listed = false;
  }
}

void FusionWorklist::addEntries(Operation *unitOp, Unit &unit) {
  // Depth 1 for top-level ops: the program itself is depth 0 (tried by the
  // driver at every step, never listed).
  unit.levels.clear();
  unit.levels.push_back({unitOp});
  while (true) {
    SmallVector<Operation *> below;
    for (Operation *op : unit.levels.back())
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Operation &nested : block)
            below.push_back(&nested);
    if (below.empty())
      break;
    unit.levels.push_back(std::move(below));
  }
  for (auto &[rule, list] : lists)
    for (unsigned depth = 1; depth <= unit.levels.size(); ++depth) {
      auto slice = std::make_unique<Slice>();
      slice->unit = &unit;
      slice->depth = depth;
      slice->listed = true;
      list.insert(slice.get());
      unit.slices.push_back(std::move(slice));
    }
}

void FusionWorklist::dropEntries(Unit &unit) {
  // Slices of one unit are told apart by rule only: erase each from its own
  // rule's list (they were added rule by rule, level by level).
  auto slice = unit.slices.begin();
  for (auto &[rule, list] : lists)
    for (unsigned depth = 1; depth <= unit.levels.size(); ++depth, ++slice)
      if ((*slice)->listed)
        list.erase(slice->get());
  unit.slices.clear();
  unit.levels.clear();
}

/// The top-level op of the current program that `op` is or is nested in.
static Operation *getUnitOf(Operation *op, Block *top) {
  while (op && op->getBlock() != top)
    op = op->getParentOp();
  return op;
}

void FusionWorklist::record(Operation *op) {
  if (Operation *unit = getUnitOf(op, top))
    touched.insert(unit);
}

void FusionWorklist::collectNeighbours(Operation *unit) {
  toRequeue.insert(unit);
  unit->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      if (Operation *producer = getUnitOf(operand.getDefiningOp(), top))
        toRequeue.insert(producer);
      // Siblings: other readers of what this unit reads.
      if (isa<ArrayType>(operand.getType()))
        for (Operation *user : operand.getUsers())
          if (Operation *sibling = getUnitOf(user, top))
            toRequeue.insert(sibling);
    }
  });
  for (Value result : unit->getResults())
    for (Operation *user : result.getUsers())
      if (Operation *consumer = getUnitOf(user, top))
        toRequeue.insert(consumer);
}

void FusionWorklist::renumber() {
  double key = 0;
  for (Operation &op : *top) {
    std::unique_ptr<Unit> &unit = units[&op];
    if (!unit)
      unit = std::make_unique<Unit>();
    unit->key = key;
    unit->keyed = true;
    key += kKeyGap;
  }
}

void FusionWorklist::assignKey(Operation *op) {
  std::unique_ptr<Unit> &unit = units[op];
  if (!unit)
    unit = std::make_unique<Unit>();
  if (unit->keyed)
    return; // Renumbered meanwhile.
  auto keyedUnit = [&](Operation *other) -> Unit * {
    auto it = units.find(other);
    return it != units.end() && it->second->keyed ? it->second.get() : nullptr;
  };
  Unit *prev = nullptr, *next = nullptr;
  for (Operation *p = op->getPrevNode(); p && !prev; p = p->getPrevNode())
    prev = keyedUnit(p);
  for (Operation *n = op->getNextNode(); n && !next; n = n->getNextNode())
    next = keyedUnit(n);
  double key;
  if (prev && next) {
    key = prev->key + (next->key - prev->key) / 2;
    if (!(prev->key < key && key < next->key)) {
      // No room left between the two: new keys for all, in program order
      // (the listed units are in that order, so the lists stay sorted).
      renumber();
      return;
    }
  } else if (prev) {
    key = prev->key + kKeyGap;
  } else if (next) {
    key = next->key - kKeyGap;
  } else {
    key = 0;
  }
  unit->key = key;
  unit->keyed = true;
}

void FusionWorklist::settle() {
  for (Operation *unit : touched) {
    changes.changed.insert(unit);
    collectNeighbours(unit);
  }
  touched.clear();
  for (Operation *op : toRequeue)
    if (auto it = units.find(op); it != units.end()) {
      dropEntries(*it->second);
      it->second->keyed = false;
    }
  for (Operation *op : toRequeue)
    assignKey(op);
  for (Operation *op : toRequeue)
    addEntries(op, *units[op]);
  toRequeue.clear();
}

void FusionWorklist::notifyOperationInserted(Operation *op,
                                             OpBuilder::InsertPoint) {
  record(op);
}

void FusionWorklist::notifyOperationModified(Operation *op) { record(op); }

void FusionWorklist::notifyOperationReplaced(Operation *op, ValueRange) {
  record(op);
  for (Value result : op->getResults())
    for (Operation *user : result.getUsers())
      record(user);
}

void FusionWorklist::notifyOperationErased(Operation *op) {
  if (getUnitOf(op, top) != op) {
    record(op);
    // The kernels it read lose a reader: one that nobody reads any more is
    // dead, and only its own list entry lets rule 7 see that (settle()
    // looks at what the changed kernel reads after the rewrite).
    for (Value operand : op->getOperands())
      if (Operation *producer = getUnitOf(operand.getDefiningOp(), top))
        toRequeue.insert(producer);
    return;
  }
  // A unit going away: its neighbours change; it must not stay listed.
  collectNeighbours(op);
  forgetUnit(op);
  changes.erased.push_back(op);
}

void FusionWorklist::forgetUnit(Operation *op) {
  toRequeue.remove(op);
  touched.remove(op);
  changes.changed.remove(op);
  if (auto it = units.find(op); it != units.end()) {
    dropEntries(*it->second);
    units.erase(it);
  }
}

void FusionWorklist::addSettledUnit(Operation *op) {
  units[op] = std::make_unique<Unit>();
  assignKey(op);
}

FusionWorklist::Changes FusionWorklist::takeChanges() {
  Changes taken = std::move(changes);
  changes = Changes();
  return taken;
}
