//===- Replication.cpp - Rule 6 -------------------------------------------===//
//
// Rule 6, replication (the extend step): a map C over more tiled axes than
// the map P whose array it loads (P over [M], C over [M, N]) runs P's body
// itself, once per instance: P's blocks are recomputed for every block of
// the extra axes. This trades FLOPs for traffic, so block-fuse applies it
// only in its extend step and keeps the result only when it pays.
//
//===----------------------------------------------------------------------===//

#include "../FusionRewriter.h"
#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
struct ReplicateProducer : public OpRewritePattern<MapOp> {
  explicit ReplicateProducer(MLIRContext *context) : OpRewritePattern(context) {
    setDebugName("replicate-producer");
  }

  LogicalResult matchAndRewrite(MapOp consumer,
                                PatternRewriter &rewriter) const override {
    Block &body = consumer.getBody().front();
    MapOp producer;
    for (LoadOp load : body.getOps<LoadOp>()) {
      MapOp candidate = getProducerMap(load.getSource());
      if (!candidate || candidate == consumer)
        continue;
      auto refuse = [&](const char *reason) {
        (void)rewriter.notifyMatchFailure(consumer, [&](Diagnostic &diag) {
          diag << "map at " << describeLocation(candidate.getLoc()) << ": "
               << reason;
        });
      };
      if (candidate.getAxes().size() >= consumer.getAxes().size() ||
          !llvm::all_of(candidate.getAxes(), [&](Attribute axis) {
            return llvm::is_contained(consumer.getAxes(), axis);
          })) {
        refuse("its axes are not a proper subset of the consumer's");
        continue;
      }
      // Fix: a producer over [M] whose body names N (a row sum over the
      // whole of N) was cloned into a map over [M, N], where N is one
      // block: the replica summed one block only.
      if (!canCloneBodyUnder(
              candidate,
              llvm::map_to_vector(consumer.getAxes(), [](Attribute axis) {
                return cast<StringAttr>(axis);
              }))) {
        refuse("its body names an axis the consumer iterates and it does "
               "not");
        continue;
      }
      if (!loadsReadProducedBlocks(body, candidate)) {
        refuse("a load of its result does not read exactly its block");
        continue;
      }
      producer = candidate;
      break;
    }
    if (!producer)
      return rewriter.notifyMatchFailure(
          consumer, "no map whose array it loads can be replicated here");

    inlineProducerLoads(rewriter, producer, body);
    describeRewrite(rewriter, "replicated map at " +
                                  describeLocation(producer.getLoc()) +
                                  " into a map over more axes");
    return success();
  }
};
/// The same inside a reduce: a contraction whose blocks a reduce over J
/// loads, recomputed there once per block of the axes the reduce's place
/// iterates beyond the producer's (the up-projection of a feed-forward
/// block, once per block of output columns).
struct ReplicateProducerIntoReduce : public OpRewritePattern<ReduceOp> {
  explicit ReplicateProducerIntoReduce(MLIRContext *context)
      : OpRewritePattern(context) {
    setDebugName("replicate-producer-into-reduce");
  }
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    return cloneProducerIntoReduce(reduce, rewriter,
                                   ProducerCloning::Replication);
  }
};
} // namespace

void blockbuster::block::populateReplicationPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReplicateProducer, ReplicateProducerIntoReduce>(
      patterns.getContext());
}
