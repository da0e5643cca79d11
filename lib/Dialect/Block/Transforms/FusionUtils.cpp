//===- FusionUtils.cpp - Shared facts and surgery for fusion rules --------===//

#include "FusionUtils.h"

#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
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

void blockbuster::block::restoreOrder(Block &block) {
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
  if (!ordered)
    (void)sortTopologically(&block);
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
