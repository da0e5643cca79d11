//===- MapIntoReduce.cpp - Rule 3 -----------------------------------------===//
//
// Rule 3, map-into-reduce fusion: a reduce over axis J that loads, in
// iteration j, block j of an array that a map P over [..., J] writes, runs
// P's body itself instead. The reduce's combiner is associative, so the
// blocks of P are consumed in the order they are produced and the array is
// never written for this reader. P keeps running for its other readers, if
// any, until they absorb it too (then the cleanup rule removes it).
//
//===----------------------------------------------------------------------===//

#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
struct FuseMapIntoReduce : public OpRewritePattern<ReduceOp> {
  FuseMapIntoReduce(MLIRContext *context, FusionTrace &trace)
      : OpRewritePattern(context), trace(trace) {
    setDebugName("fuse-map-into-reduce");
  }

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    Block &body = reduce.getBody().front();
    auto consumer = reduce->getParentOfType<MapOp>();
    // The axes iterated where the producer's body would run.
    SmallVector<StringAttr> iterated = getIteratedAxes(reduce);
    iterated.push_back(reduce.getAxisAttr());
    // The first producer whose loads directly in this body all read the
    // block of the current iteration, and whose body does not name an axis
    // iterated here but not by the producer (fix: a producer over [J] that
    // sums a load over the whole of M was moved into a map over [M], where
    // the load reads one block of M, and summed one block only).
    MapOp producer;
    for (LoadOp load : body.getOps<LoadOp>()) {
      MapOp candidate = getProducerMap(load.getSource());
      if (!candidate || candidate == consumer ||
          !llvm::is_contained(candidate.getAxes(), reduce.getAxisAttr()) ||
          !canCloneBodyUnder(candidate, iterated))
        continue;
      bool exact = llvm::all_of(body.getOps<LoadOp>(), [&](LoadOp other) {
        return getProducerMap(other.getSource()) != candidate ||
               readsProducedBlock(
                   other, candidate,
                   cast<OpResult>(other.getSource()).getResultNumber());
      });
      if (exact) {
        producer = candidate;
        break;
      }
    }
    if (!producer)
      return failure();

    rewriter.setInsertionPointToStart(&body);
    SmallVector<Value> tiles = cloneMapBody(rewriter, producer);
    SmallVector<LoadOp> loads;
    for (LoadOp load : body.getOps<LoadOp>())
      if (getProducerMap(load.getSource()) == producer)
        loads.push_back(load);
    for (LoadOp load : loads)
      replaceLoad(rewriter, load,
                  tiles[cast<OpResult>(load.getSource()).getResultNumber()]);
    trace.message = "moved map at " + describeLocation(producer.getLoc()) +
                    " into the reduce over " + reduce.getAxis().str();
    return success();
  }

  FusionTrace &trace;
};
} // namespace

void blockbuster::block::populateMapIntoReducePatterns(
    RewritePatternSet &patterns, FusionTrace &trace) {
  patterns.add<FuseMapIntoReduce>(patterns.getContext(), trace);
}
