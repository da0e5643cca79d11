//===- DistinctResults.cpp - Each program result its own array ------------===//
//
// convert-linalg-to-block gives every program result an array of its own
// (returned arguments and views get copy kernels). Fusion can undo that:
// rule 7 merges two reduces that compute the same thing (a max written
// with maximumf and one with maxnumf are both block.max), and the program
// then returns one array twice, or one array and a view of it (a [M] max
// and a keepdim [M, 1] max of the same rows). On the GPU two results are
// two out-parameters, so the second would be a host copy, which the
// runtime cannot execute (bb-difftest seed 6161, programs 15, 110 and 195;
// seed 9595, program 47). The map that writes the array yields its tile
// once more, as a result of its own, and a returned view is re-made on that
// result: no kernel and no copy more.
//
//===----------------------------------------------------------------------===//

#include "FusionDriver/FusionUtils.h"

using namespace mlir;
using namespace blockbuster::block;

/// The array `value` shows: `value` with its views peeled off.
static Value peelViews(Value value) {
  while (auto view = value.getDefiningOp<ViewOp>())
    value = view.getSource();
  return value;
}

/// The position of the first operand of `ret` whose array (views peeled)
/// repeats an earlier operand's and is a map's result, if any.
static std::optional<unsigned> findRepeatedMapResult(ReturnOp ret) {
  llvm::SmallPtrSet<Value, 8> seen;
  for (OpOperand &operand : ret->getOpOperands()) {
    Value array = peelViews(operand.get());
    if (!seen.insert(array).second &&
        isa_and_present<MapOp>(array.getDefiningOp()))
      return operand.getOperandNumber();
  }
  return std::nullopt;
}

/// `value` re-made on `array`: the views between `value` and its peeled
/// array cloned onto `array`, innermost first.
static Value remakeViews(RewriterBase &rewriter, Value value, Value array) {
  auto view = value.getDefiningOp<ViewOp>();
  if (!view)
    return array;
  Value source = remakeViews(rewriter, view.getSource(), array);
  rewriter.setInsertionPoint(view);
  return ViewOp::create(rewriter, view.getLoc(), view.getType(), source);
}

void blockbuster::block::yieldRepeatedResultsSeparately(
    ProgramOp program, RewriterBase &rewriter) {
  auto ret = cast<ReturnOp>(program.getBody().front().getTerminator());
  while (std::optional<unsigned> position = findRepeatedMapResult(ret)) {
    Value returned = ret->getOperand(*position);
    auto result = cast<OpResult>(peelViews(returned));
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
    // Before the map goes: `returned` may be its result.
    Value separate = remakeViews(rewriter, returned,
                                 widened.getResults().back());
    auto returnedView = returned.getDefiningOp<ViewOp>();
    rewriter.replaceOp(map, widened.getResults().drop_back());
    rewriter.modifyOpInPlace(ret,
                             [&] { ret->setOperand(*position, separate); });
    // The views the return held alone are dead now.
    while (returnedView && returnedView->use_empty()) {
      auto source = returnedView.getSource().getDefiningOp<ViewOp>();
      rewriter.eraseOp(returnedView);
      returnedView = source;
    }
  }
}
