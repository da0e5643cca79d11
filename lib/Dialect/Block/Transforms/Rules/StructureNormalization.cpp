//===- StructureNormalization.cpp - Rule 8 --------------------------------===//
//
// Rule 8, structure normalisation: canonical forms the other rules match.
// A reduce over a whole axis runs once, so it is inlined; a broadcast to its
// operand's own type, or of a broadcast, is folded. Each pattern removes an
// op, so the rule terminates.
//
// The vocabulary (isSingleIterationReduce, inlineSingleIterationReduce) is
// here; the patterns are StructureNormalization.pdll.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

bool blockbuster::block::isSingleIterationReduce(ReduceOp reduce) {
  auto program = reduce->getParentOfType<ProgramOp>();
  AxisAttr axis = program ? program.lookupAxis(reduce.getAxisAttr())
                          : AxisAttr();
  return axis && axis.isWhole();
}

/// A reduce over a whole axis has one iteration: its results are its terms
/// folded once into the initial state.
void blockbuster::block::inlineSingleIterationReduce(RewriterBase &rewriter,
                                                     ReduceOp reduce) {
  Block &body = reduce.getBody().front();
  SmallVector<Value> terms(reduce.getYield().getOperands());
  rewriter.eraseOp(reduce.getYield());
  rewriter.inlineBlockBefore(&body, reduce);
  SmallVector<Value> results = terms;
  if (reduce.hasRegionCombiner()) {
    // Fold the single term into the initial state.
    Block &combine = reduce.getCombiner().front();
    SmallVector<Value> arguments(reduce.getInits());
    llvm::append_range(arguments, terms);
    auto combineYield = cast<YieldOp>(combine.getTerminator());
    SmallVector<Value> combined(combineYield.getOperands());
    rewriter.eraseOp(combineYield);
    // Values yielded straight from the arguments are remapped below.
    for (Value &value : combined)
      if (auto arg = dyn_cast<BlockArgument>(value);
          arg && arg.getOwner() == &combine)
        value = arguments[arg.getArgNumber()];
    rewriter.inlineBlockBefore(&combine, reduce, arguments);
    results = combined;
  }
  rewriter.replaceOp(reduce, results);
}

#include "Rules/StructureNormalization.h.inc"

void blockbuster::block::populateStructureNormalizationPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
