//===- Replication.cpp - Rule 6 -------------------------------------------===//
//
// Rule 6, replication (the extend step): a map C over more tiled axes than
// the map P whose array it loads (P over [M], C over [M, N]) runs P's body
// itself, once per instance: P's blocks are recomputed for every block of
// the extra axes. This trades FLOPs for traffic, so block-fuse applies it
// only in its extend step and keeps the result only when it pays.
//
// The vocabulary (findProducerToReplicate, replicateProducer; the reduce
// form is rule 3's with the opposite control) is here; the patterns are
// Replication.pdll.
//
//===----------------------------------------------------------------------===//

#include "../FusionDriver/FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

static SmallVector<StringAttr> getAxisNames(MapOp map) {
  return llvm::map_to_vector(map.getAxes(), [](Attribute axis) {
    return cast<StringAttr>(axis);
  });
}

/// Whether `type` is a tile with `axis`.
static bool namesAxis(Type type, StringAttr axis) {
  auto tile = dyn_cast<TileType>(type);
  return tile && tile.hasAxis(axis);
}

/// Whether `op` names `axis`: in a result or block argument type, or as
/// the axis of a reduce.
static bool namesAxis(Operation *op, StringAttr axis) {
  if (auto reduce = dyn_cast<ReduceOp>(op);
      reduce && reduce.getAxisAttr() == axis)
    return true;
  auto names = [&](Type type) { return namesAxis(type, axis); };
  if (llvm::any_of(op->getResultTypes(), names))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), names))
        return true;
  return false;
}

/// The axes `consumer` iterates and `producer` does not that `producer`'s
/// body names.
static SmallVector<StringAttr> getClashingAxes(MapOp producer,
                                               MapOp consumer) {
  SmallVector<StringAttr> clashing;
  for (StringAttr axis : getAxisNames(consumer)) {
    if (llvm::is_contained(producer.getAxes(), axis))
      continue;
    WalkResult named = producer.getBody().walk([&](Operation *op) {
      return namesAxis(op, axis) ? WalkResult::interrupt()
                                 : WalkResult::advance();
    });
    if (named.wasInterrupted())
      clashing.push_back(axis);
  }
  return clashing;
}

/// True when every op of `producer`'s body that names one of `axes` is, or
/// is inside, a reduce over it: renaming the axis keeps what the body
/// computes (the reduce still covers the whole extent).
static bool namesOnlyInReducesOver(MapOp producer, ArrayRef<StringAttr> axes) {
  auto insideReduceOver = [](Operation *op, StringAttr axis) {
    for (; op; op = op->getParentOp())
      if (auto reduce = dyn_cast<ReduceOp>(op);
          reduce && reduce.getAxisAttr() == axis)
        return true;
    return false;
  };
  WalkResult result = producer.getBody().walk([&](Operation *op) {
    for (StringAttr axis : axes)
      if (namesAxis(op, axis) && !insideReduceOver(op, axis))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Renames `axes` in `map`'s body (the types and attributes of every nested
/// op) to fresh axes of the same extent and kind, added to the program's
/// table.
static void renameAxes(RewriterBase &rewriter, MapOp map,
                       ArrayRef<StringAttr> axes) {
  auto program = map->getParentOfType<ProgramOp>();
  SmallVector<Attribute> table(program.getAxes().getValue());
  llvm::DenseMap<StringAttr, StringAttr> renaming;
  for (StringAttr axis : axes) {
    AxisAttr entry = program.lookupAxis(axis);
    StringAttr fresh = getFreshAxisName(program, axis);
    table.push_back(AxisAttr::get(axis.getContext(), fresh, entry.getExtent(),
                                  entry.getKind(), entry.getBlockSize()));
    renaming[axis] = fresh;
  }
  rewriter.modifyOpInPlace(program, [&] {
    program.setAxesAttr(ArrayAttr::get(program.getContext(), table));
  });
  for (Operation &op : map.getBody().front())
    renameAxesIn(rewriter, &op, renaming);
}

MapOp blockbuster::block::findProducerToReplicate(MapOp consumer,
                                                  RefusalFn refuse,
                                                  ReplicationOptions options) {
  Block &body = consumer.getBody().front();
  for (LoadOp load : body.getOps<LoadOp>()) {
    MapOp candidate = getProducerMap(load.getSource());
    if (!candidate || candidate == consumer)
      continue;
    auto refuseCandidate = [&](const char *reason) {
      if (refuse)
        refuse("map at " + describeLocation(candidate.getLoc()) + ": " +
               reason);
    };
    if (candidate.getAxes().size() >= consumer.getAxes().size() ||
        !llvm::all_of(candidate.getAxes(), [&](Attribute axis) {
          return llvm::is_contained(consumer.getAxes(), axis);
        })) {
      refuseCandidate("its axes are not a proper subset of the consumer's");
      continue;
    }
    // Fix: a producer over [M] whose body names N (a row sum over the
    // whole of N) was cloned into a map over [M, N], where N is one
    // block: the replica summed one block only. A producer that names N
    // only inside reduces over N is replicated with N renamed
    // (replicateProducer).
    SmallVector<StringAttr> clashing = getClashingAxes(candidate, consumer);
    if (!options.renameReducedAxes && !clashing.empty()) {
      refuseCandidate("its body names an axis the consumer iterates and it "
                      "does not");
      continue;
    }
    if (options.renameReducedAxes &&
        (clashing.empty() || !namesOnlyInReducesOver(candidate, clashing))) {
      refuseCandidate(clashing.empty()
                          ? "it needs no axis renamed (the first phase's)"
                          : "its body names an axis the consumer iterates "
                            "and it does not outside a reduce over it");
      continue;
    }
    if (!loadsReadProducedBlocks(body, candidate)) {
      refuseCandidate("a load of its result does not read exactly its block");
      continue;
    }
    return candidate;
  }
  if (refuse)
    refuse("no map whose array it loads can be replicated here");
  return {};
}

void blockbuster::block::replicateProducer(RewriterBase &rewriter,
                                           MapOp producer, MapOp consumer) {
  Block &body = consumer.getBody().front();
  SmallVector<StringAttr> clashing = getClashingAxes(producer, consumer);
  if (clashing.empty())
    return inlineProducerLoads(rewriter, producer, body);
  // The producer reduces over axes the consumer iterates (a LayerNorm's
  // statistics over the features, read by a map over rows and blocks of
  // features): the consumer reads, and runs, a copy whose reduces iterate
  // fresh axes of the same extents.
  rewriter.setInsertionPointAfter(producer);
  auto copy = cast<MapOp>(rewriter.clone(*producer));
  renameAxes(rewriter, copy, clashing);
  for (LoadOp load : llvm::to_vector(body.getOps<LoadOp>()))
    if (getProducerMap(load.getSource()) == producer)
      rewriter.modifyOpInPlace(load, [&] {
        load->setOperand(
            0, copy->getResult(
                   cast<OpResult>(load.getSource()).getResultNumber()));
      });
  inlineProducerLoads(rewriter, copy, body);
  rewriter.eraseOp(copy);
}

#include "Rules/Replication.h.inc"

void blockbuster::block::populateReplicationPatterns(
    RewritePatternSet &patterns, ReplicationOptions options) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns(), options);
}

void blockbuster::block::populateReplicationPatterns(
    RewritePatternSet &patterns) {
  populateReplicationPatterns(patterns, ReplicationOptions{});
}
