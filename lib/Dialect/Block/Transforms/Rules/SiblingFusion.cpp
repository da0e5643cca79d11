//===- SiblingFusion.cpp - Rule 2 -----------------------------------------===//
//
// Rule 2, sibling map fusion: two maps over the same tiled axes that read a
// common array, with no path between them, become one map running both
// bodies; the cleanup rule then loads the shared array once. Refused when
// either depends on the other: the fused map would have to run before and
// after itself.
//
// The vocabulary (findSiblingToFuse, fuseSiblingMaps) is here; the pattern
// is SiblingFusion.pdll.
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

static llvm::SetVector<Value> getLoadedArrays(MapOp map) {
  llvm::SetVector<Value> arrays;
  map.getBody().walk([&](LoadOp load) { arrays.insert(load.getSource()); });
  return arrays;
}

MapOp blockbuster::block::findSiblingToFuse(MapOp second, RefusalFn refuse) {
  SmallVector<StringAttr> axes = getSortedMapAxes(second);
  // The candidates are the earlier maps that read an array `second` reads,
  // found from the arrays' users rather than by walking every earlier map
  // (with a dependence search for each, that walk made the rule quadratic
  // in the program). Taken in program order, the first that passes is the
  // one the walk would have found.
  Block *block = second->getBlock();
  llvm::SetVector<Operation *> readers;
  for (Value array : getLoadedArrays(second))
    for (Operation *user : array.getUsers())
      if (Operation *top = block->findAncestorOpInBlock(*user))
        if (isa<MapOp>(top) && top->isBeforeInBlock(second))
          readers.insert(top);
  SmallVector<Operation *> candidates(readers.begin(), readers.end());
  llvm::sort(candidates, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  if (candidates.empty() && refuse)
    refuse("no earlier map reads an array it reads");
  for (Operation *op : candidates) {
    auto candidate = cast<MapOp>(op);
    auto refuseCandidate = [&](const char *reason) {
      if (refuse)
        refuse("sibling map at " + describeLocation(candidate.getLoc()) +
               ": " + reason);
    };
    // A map that writes nothing is dead (rule 7 empties it); the PDL
    // pattern names the sibling by its results.
    if (candidate->getNumResults() == 0) {
      refuseCandidate("writes no array");
      continue;
    }
    if (getSortedMapAxes(candidate) != axes) {
      refuseCandidate("iterates other tiled axes");
      continue;
    }
    if (dependsOn(second, candidate)) {
      refuseCandidate("this map depends on it");
      continue;
    }
    return candidate;
  }
  return {};
}

MapOp blockbuster::block::fuseSiblingMaps(RewriterBase &rewriter, MapOp first,
                                          MapOp second) {
  SmallVector<Type> types(first->getResultTypes());
  llvm::append_range(types, second->getResultTypes());
  rewriter.setInsertionPoint(second);
  auto fused =
      MapOp::create(rewriter, second.getLoc(), types, second.getAxesAttr());
  Block *body = rewriter.createBlock(&fused.getBody());
  YieldOp firstYield = first.getYield(), secondYield = second.getYield();
  SmallVector<Value> yielded(firstYield.getOperands());
  llvm::append_range(yielded, secondYield.getOperands());
  rewriter.eraseOp(firstYield);
  rewriter.eraseOp(secondYield);
  rewriter.inlineBlockBefore(&first.getBody().front(), body, body->end());
  rewriter.inlineBlockBefore(&second.getBody().front(), body, body->end());
  rewriter.setInsertionPointToEnd(body);
  YieldOp::create(rewriter, second.getLoc(), yielded);

  unsigned numFirst = first.getNumResults();
  rewriter.replaceOp(first, fused.getResults().take_front(numFirst));
  rewriter.replaceOp(second, fused.getResults().drop_front(numFirst));
  restoreOrder(rewriter, *fused->getBlock());
  return fused;
}

#include "Rules/SiblingFusion.h.inc"

void blockbuster::block::populateSiblingFusionPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
