//===- DistinctResults.cpp - Each program result its own array ------------===//
//
// convert-linalg-to-block gives every program result an array of its own
// (returned arguments and views get copy kernels). Fusion can undo that:
// rule 7 merges two reduces that compute the same thing (a max written
// with maximumf and one with maxnumf are both block.max), and the program
// then returns one array twice. On the GPU two results are two
// out-parameters, so the second would be a host copy, which the runtime
// cannot execute (bb-difftest seed 6161, programs 15, 110 and 195). The
// map that writes the array yields its tile once more, as a result of its
// own: no kernel and no copy more.
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"

using namespace mlir;
using namespace blockbuster::block;

/// The position of the first operand of `ret` that repeats an earlier one
/// and is a map's result, if any.
static std::optional<unsigned> findRepeatedMapResult(ReturnOp ret) {
  llvm::SmallPtrSet<Value, 8> seen;
  for (OpOperand &operand : ret->getOpOperands())
    if (!seen.insert(operand.get()).second &&
        isa_and_present<MapOp>(operand.get().getDefiningOp()))
      return operand.getOperandNumber();
  return std::nullopt;
}

void blockbuster::block::yieldRepeatedResultsSeparately(
    ProgramOp program, RewriterBase &rewriter) {
  auto ret = cast<ReturnOp>(program.getBody().front().getTerminator());
  while (std::optional<unsigned> position = findRepeatedMapResult(ret)) {
    auto result = cast<OpResult>(ret->getOperand(*position));
    auto map = cast<MapOp>(result.getOwner());
    SmallVector<Type> resultTypes(map->getResultTypes());
    resultTypes.push_back(result.getType());
    rewriter.setInsertionPoint(map);
    auto widened = MapOp::create(rewriter, map.getLoc(), resultTypes,
                                 map.getAxesAttr());
    rewriter.inlineRegionBefore(map.getBody(), widened.getBody(),
                                widened.getBody().end());
    auto yield = cast<YieldOp>(widened.getBody().front().getTerminator());
    SmallVector<Value> yielded(yield.getOperands());
    yielded.push_back(yielded[result.getResultNumber()]);
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, yielded);
    rewriter.replaceOp(map, widened.getResults().drop_back());
    rewriter.modifyOpInPlace(
        ret, [&] { ret->setOperand(*position, widened.getResults().back()); });
  }
}
