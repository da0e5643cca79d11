//===- ProducerConsumerFusion.cpp - Rule 1 --------------------------------===//
//
// Rule 1, producer-consumer map fusion: a map C that loads, at its own block
// indices, an array that map P (over the same tiled axes) writes, absorbs P.
// P's body runs first in the fused map and C uses its tile directly; P's
// other results are still yielded when someone else reads them
// (multi-output). Refused when a third kernel lies on a path from P to C: the
// fused map would have to run both before and after it.
//
// The vocabulary (findProducerToFuse, fuseProducerIntoConsumer) is here; the
// pattern is ProducerConsumerFusion.pdll.
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

MapOp blockbuster::block::findProducerToFuse(MapOp consumer,
                                             RefusalFn refuse) {
  SmallVector<StringAttr> consumerAxes = getSortedMapAxes(consumer);
  llvm::SetVector<MapOp> candidates;
  consumer.getBody().walk([&](LoadOp load) {
    if (MapOp producer = getProducerMap(load.getSource());
        producer && producer != consumer)
      candidates.insert(producer);
  });
  if (candidates.empty() && refuse)
    refuse("loads no array a map writes");
  for (MapOp producer : candidates) {
    auto refuseProducer = [&](const char *reason) {
      if (refuse)
        refuse("map at " + describeLocation(producer.getLoc()) + ": " +
               reason);
    };
    if (getSortedMapAxes(producer) != consumerAxes) {
      refuseProducer("iterates other tiled axes than the consumer");
      continue;
    }
    bool exact = true;
    consumer.getBody().walk([&](LoadOp load) {
      if (getProducerMap(load.getSource()) == producer &&
          !readsProducedBlock(
              load, producer,
              cast<OpResult>(load.getSource()).getResultNumber()))
        exact = false;
    });
    if (!exact) {
      refuseProducer("a load of its result does not read exactly its block");
      continue;
    }
    if (hasIndirectPath(producer, consumer)) {
      refuseProducer("another kernel lies on a path from it to the consumer");
      continue;
    }
    return producer;
  }
  return {};
}

MapOp blockbuster::block::fuseProducerIntoConsumer(RewriterBase &rewriter,
                                                   MapOp producer,
                                                   MapOp consumer) {
  // Results of the producer that someone besides the consumer reads stay
  // results of the fused map.
  SmallVector<unsigned> kept;
  for (OpResult result : producer->getResults())
    if (llvm::any_of(result.getUsers(), [&](Operation *user) {
          return !consumer->isAncestor(user);
        }))
      kept.push_back(result.getResultNumber());

  SmallVector<Type> resultTypes(consumer->getResultTypes());
  for (unsigned index : kept)
    resultTypes.push_back(producer.getResult(index).getType());
  rewriter.setInsertionPoint(consumer);
  auto fused = MapOp::create(rewriter, consumer.getLoc(), resultTypes,
                             consumer.getAxesAttr());
  rewriter.inlineRegionBefore(consumer.getBody(), fused.getBody(),
                              fused.getBody().end());
  Block &body = fused.getBody().front();

  rewriter.setInsertionPointToStart(&body);
  SmallVector<Value> tiles = cloneMapBody(rewriter, producer);
  SmallVector<LoadOp> loads;
  body.walk([&](LoadOp load) {
    if (getProducerMap(load.getSource()) == producer)
      loads.push_back(load);
  });
  for (LoadOp load : loads)
    replaceLoad(rewriter, load,
                tiles[cast<OpResult>(load.getSource()).getResultNumber()]);

  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<Value> yielded(yield.getOperands());
  for (unsigned index : kept)
    yielded.push_back(tiles[index]);
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<YieldOp>(yield, yielded);

  unsigned numConsumerResults = consumer.getNumResults();
  rewriter.replaceOp(consumer,
                     fused.getResults().take_front(numConsumerResults));
  for (auto [position, index] : llvm::enumerate(kept))
    rewriter.replaceAllUsesWith(producer.getResult(index),
                                fused.getResult(numConsumerResults + position));
  rewriter.eraseOp(producer);
  restoreOrder(rewriter, *fused->getBlock());
  return fused;
}

#include "Rules/ProducerConsumerFusion.h.inc"

void blockbuster::block::populateProducerConsumerFusionPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
