//===- FusionUtils.cpp - Shared facts and surgery for fusion rules --------===//

#include "FusionUtils.h"

#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace blockbuster::block;

MapOp blockbuster::block::getProducerMap(Value array) {
  auto result = dyn_cast<OpResult>(array);
  return result ? dyn_cast<MapOp>(result.getOwner()) : MapOp();
}

llvm::SetVector<Operation *>
blockbuster::block::getTopLevelProducers(Operation *op) {
  llvm::SetVector<Operation *> producers;
  Block *top = op->getBlock();
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (Operation *definer = operand.getDefiningOp();
          definer && definer->getBlock() == top)
        producers.insert(definer);
  });
  return producers;
}

bool blockbuster::block::dependsOn(Operation *to, Operation *from) {
  // Both are top-level ops of one block, which is in def-before-use order:
  // only ops between them can be on a path.
  if (!from->isBeforeInBlock(to))
    return false;
  SmallVector<Operation *> worklist = {to};
  llvm::DenseSet<Operation *> seen = {to};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Operation *producer : getTopLevelProducers(op)) {
      if (producer == from)
        return true;
      if (producer->isBeforeInBlock(from) || !seen.insert(producer).second)
        continue;
      worklist.push_back(producer);
    }
  }
  return false;
}

bool blockbuster::block::hasIndirectPath(Operation *producer,
                                         Operation *consumer) {
  for (Operation *middle : getTopLevelProducers(consumer))
    if (middle != producer && dependsOn(middle, producer))
      return true;
  return false;
}

StringAttr blockbuster::block::getFreshAxisName(ProgramOp program,
                                               StringAttr axis) {
  for (unsigned suffix = 1;; ++suffix) {
    auto name = StringAttr::get(axis.getContext(),
                                axis.getValue() + "_" + Twine(suffix));
    if (!program.lookupAxis(name))
      return name;
  }
}

void blockbuster::block::renameAxesIn(
    RewriterBase &rewriter, Operation *op,
    const llvm::DenseMap<StringAttr, StringAttr> &renaming) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](StringAttr name) -> std::optional<Attribute> {
    if (StringAttr renamed = renaming.lookup(name))
      return renamed;
    return std::nullopt;
  });
  op->walk([&](Operation *nested) {
    rewriter.modifyOpInPlace(nested, [&] {
      replacer.replaceElementsIn(nested, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false, /*replaceTypes=*/true);
    });
  });
}

bool blockbuster::block::readsProducedBlock(LoadOp load, MapOp producer,
                                            unsigned resultIndex) {
  auto yielded = cast<TileType>(
      producer.getYield().getOperand(resultIndex).getType());
  ArrayRef<StringAttr> yieldAxes = yielded.getAxes();
  if (load.getIndexAxes().size() != yieldAxes.size())
    return false;
  for (auto [entry, offset, axis] :
       llvm::zip(load.getIndexAxes(), load.getOffsets(), yieldAxes))
    if (cast<StringAttr>(entry) != axis || offset != -1)
      return false;
  SmallVector<StringAttr> iterated = getIteratedAxes(load);
  for (StringAttr axis : yieldAxes) {
    bool producerIterates = llvm::is_contained(producer.getAxes(), axis);
    if (producerIterates != llvm::is_contained(iterated, axis))
      return false;
  }
  return true;
}

bool blockbuster::block::canCloneBodyUnder(MapOp producer,
                                           ArrayRef<StringAttr> iterated) {
  SmallVector<StringAttr> extra;
  for (StringAttr axis : iterated)
    if (!llvm::is_contained(producer.getAxes(), axis))
      extra.push_back(axis);
  if (extra.empty())
    return true;
  auto namesExtra = [&](Type type) {
    auto tile = dyn_cast<TileType>(type);
    return tile && llvm::any_of(extra, [&](StringAttr axis) {
             return tile.hasAxis(axis);
           });
  };
  WalkResult result = producer.getBody().walk([&](Operation *op) {
    if (auto reduce = dyn_cast<ReduceOp>(op);
        reduce && llvm::is_contained(extra, reduce.getAxisAttr()))
      return WalkResult::interrupt();
    if (llvm::any_of(op->getResultTypes(), namesExtra))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), namesExtra))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

SmallVector<Value> blockbuster::block::cloneMapBody(RewriterBase &rewriter,
                                                    MapOp producer) {
  IRMapping mapping;
  Block &body = producer.getBody().front();
  for (Operation &op : body.without_terminator())
    rewriter.clone(op, mapping);
  return llvm::map_to_vector(producer.getYield().getOperands(),
                             [&](Value v) { return mapping.lookupOrDefault(v); });
}

bool blockbuster::block::loadsReadProducedBlocks(Block &body,
                                                MapOp producer) {
  return llvm::all_of(body.getOps<LoadOp>(), [&](LoadOp load) {
    return getProducerMap(load.getSource()) != producer ||
           readsProducedBlock(
               load, producer,
               cast<OpResult>(load.getSource()).getResultNumber());
  });
}

void blockbuster::block::inlineProducerLoads(RewriterBase &rewriter,
                                             MapOp producer, Block &body) {
  rewriter.setInsertionPointToStart(&body);
  SmallVector<Value> tiles = cloneMapBody(rewriter, producer);
  SmallVector<LoadOp> loads;
  for (LoadOp load : body.getOps<LoadOp>())
    if (getProducerMap(load.getSource()) == producer)
      loads.push_back(load);
  for (LoadOp load : loads)
    replaceLoad(rewriter, load,
                tiles[cast<OpResult>(load.getSource()).getResultNumber()]);
}

void blockbuster::block::replaceLoad(RewriterBase &rewriter, LoadOp load,
                                     Value tile) {
  if (tile.getType() != load.getType()) {
    rewriter.setInsertionPoint(load);
    tile = BroadcastOp::create(rewriter, load.getLoc(), load.getType(), tile);
  }
  rewriter.replaceOp(load, tile);
}

/// True when `op` can be scheduled: no operand of it or of an op nested in
/// it is defined by an op of `unscheduled` (upstream's isOpReady).
static bool isOpReady(Operation *op,
                      const llvm::DenseSet<Operation *> &unscheduled) {
  auto isReady = [&](Value value) {
    for (Operation *parent = value.getDefiningOp(); parent;
         parent = parent->getParentOp()) {
      if (parent == op)
        return true;
      if (unscheduled.contains(parent))
        return false;
    }
    return true;
  };
  WalkResult result = op->walk([&](Operation *nested) {
    return llvm::all_of(nested->getOperands(), isReady)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// The order upstream's sortTopologically(&block) would leave the ops of
/// `ops` (the block's ops but its terminator) in, computed without moving
/// them: ready ops move to the front of the unscheduled part, in order.
static SmallVector<Operation *> computeStableOrder(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> order(ops);
  llvm::DenseSet<Operation *> unscheduled(ops.begin(), ops.end());
  size_t next = 0;
  while (!unscheduled.empty()) {
    bool scheduled = false;
    for (size_t i = next, e = order.size(); i < e; ++i) {
      Operation *op = order[i];
      if (!isOpReady(op, unscheduled))
        continue;
      unscheduled.erase(op);
      order.erase(order.begin() + i);
      order.insert(order.begin() + next, op);
      ++next;
      scheduled = true;
    }
    if (!scheduled) {
      // A cycle: take the first op as it is (as upstream does).
      unscheduled.erase(order[next]);
      ++next;
    }
  }
  return order;
}

void blockbuster::block::restoreOrder(RewriterBase &rewriter, Block &block) {
  // Most rewrites leave the block in def-before-use order, and then the
  // (stable) sort would move nothing. Checking the uses of the block's own
  // results costs the number of those uses; the sort walks every nested op
  // of the block, which made each fusion step cost the whole program.
  bool ordered = llvm::all_of(block, [&](Operation &op) {
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers()) {
        Operation *ancestor = block.findAncestorOpInBlock(*user);
        if (ancestor && ancestor != &op && ancestor->isBeforeInBlock(&op))
          return false;
      }
    return true;
  });
  if (ordered)
    return;
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  if (!ops.empty() && ops.back()->hasTrait<OpTrait::IsTerminator>())
    ops.pop_back();
  SmallVector<Operation *> order = computeStableOrder(ops);
  // The ops that stay: a longest run of `order` already in block order
  // (patience sorting on the old positions; parent links rebuild it).
  llvm::DenseMap<Operation *, size_t> oldPosition;
  for (auto [position, op] : llvm::enumerate(ops))
    oldPosition[op] = position;
  SmallVector<size_t> tails, parent(order.size(), ~size_t(0));
  for (size_t i = 0; i < order.size(); ++i) {
    auto pos = llvm::partition_point(tails, [&](size_t t) {
      return oldPosition[order[t]] < oldPosition[order[i]];
    });
    if (pos != tails.begin())
      parent[i] = *(pos - 1);
    if (pos == tails.end())
      tails.push_back(i);
    else
      *pos = i;
  }
  llvm::DenseSet<Operation *> staying;
  for (size_t i = tails.empty() ? ~size_t(0) : tails.back(); i != ~size_t(0);
       i = parent[i])
    staying.insert(order[i]);
  // Each other op goes right after its predecessor in `order` (which is in
  // place by then), the first one to the front.
  for (auto [index, op] : llvm::enumerate(order)) {
    if (staying.contains(op))
      continue;
    if (index == 0)
      rewriter.moveOpBefore(op, &block, block.begin());
    else
      rewriter.moveOpAfter(op, order[index - 1]);
  }
}

std::string blockbuster::block::describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return describeLocation(fused.getLocations().front());
  if (auto name = dyn_cast<NameLoc>(loc))
    return describeLocation(name.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(callSite.getCallee());
  return "?";
}

SmallVector<StringAttr> blockbuster::block::getSortedMapAxes(MapOp map) {
  SmallVector<StringAttr> axes = llvm::map_to_vector(
      map.getAxes(), [](Attribute a) { return cast<StringAttr>(a); });
  llvm::sort(axes, [](StringAttr a, StringAttr b) {
    return a.getValue() < b.getValue();
  });
  return axes;
}
