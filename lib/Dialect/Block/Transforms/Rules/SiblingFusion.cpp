//===- SiblingFusion.cpp - Rule 2 -----------------------------------------===//
//
// Rule 2, sibling map fusion: two maps over the same tiled axes that read a
// common array, with no path between them, become one map running both
// bodies; the cleanup rule then loads the shared array once. Refused when
// either depends on the other: the fused map would have to run before and
// after itself.
//
//===----------------------------------------------------------------------===//

#include "../FusionRewriter.h"
#include "../FusionUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
llvm::SetVector<Value> getLoadedArrays(MapOp map) {
  llvm::SetVector<Value> arrays;
  map.getBody().walk([&](LoadOp load) { arrays.insert(load.getSource()); });
  return arrays;
}

struct FuseSiblings : public OpRewritePattern<MapOp> {
  explicit FuseSiblings(MLIRContext *context) : OpRewritePattern(context) {
    setDebugName("fuse-siblings");
  }

  LogicalResult matchAndRewrite(MapOp second,
                                PatternRewriter &rewriter) const override {
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
    if (candidates.empty())
      return rewriter.notifyMatchFailure(
          second, "no earlier map reads an array it reads");
    MapOp first;
    for (Operation *op : candidates) {
      auto candidate = cast<MapOp>(op);
      auto refuse = [&](const char *reason) {
        (void)rewriter.notifyMatchFailure(second, [&](Diagnostic &diag) {
          diag << "sibling map at " << describeLocation(candidate.getLoc())
               << ": " << reason;
        });
      };
      if (getSortedMapAxes(candidate) != axes) {
        refuse("iterates other tiled axes");
        continue;
      }
      if (dependsOn(second, candidate)) {
        refuse("this map depends on it");
        continue;
      }
      first = candidate;
      break;
    }
    if (!first)
      return failure();

    SmallVector<Type> types(first->getResultTypes());
    llvm::append_range(types, second->getResultTypes());
    rewriter.setInsertionPoint(second);
    auto fused = MapOp::create(rewriter, second.getLoc(), types,
                               second.getAxesAttr());
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

    describeRewrite(rewriter, "fused sibling map at " +
                                  describeLocation(first.getLoc()) +
                                  ", which reads a common array");
    unsigned numFirst = first.getNumResults();
    rewriter.replaceOp(first, fused.getResults().take_front(numFirst));
    rewriter.replaceOp(second, fused.getResults().drop_front(numFirst));
    restoreOrder(rewriter, *fused->getBlock());
    return success();
  }
};
} // namespace

void blockbuster::block::populateSiblingFusionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FuseSiblings>(patterns.getContext());
}
