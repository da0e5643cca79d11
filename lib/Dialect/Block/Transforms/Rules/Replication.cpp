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

#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

MapOp blockbuster::block::findProducerToReplicate(MapOp consumer,
                                                  RefusalFn refuse) {
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
    // block: the replica summed one block only.
    if (!canCloneBodyUnder(
            candidate,
            llvm::map_to_vector(consumer.getAxes(), [](Attribute axis) {
              return cast<StringAttr>(axis);
            }))) {
      refuseCandidate("its body names an axis the consumer iterates and it "
                      "does not");
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
  inlineProducerLoads(rewriter, producer, consumer.getBody().front());
}

#include "Rules/Replication.h.inc"

void blockbuster::block::populateReplicationPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
