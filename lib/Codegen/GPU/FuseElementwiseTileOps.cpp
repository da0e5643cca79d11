//===- FuseElementwiseTileOps.cpp - Elementwise fusion that keeps dots ----===//
//
// Upstream's linalg-fuse-elementwise-ops fuses any single-use elementwise
// producer into its consumer, including into a contraction whose operand
// map leaves out a loop. For a LayerNorm or RMSNorm feeding a matmul, the
// normalisation of the A tile (and its rounding to bf16) then moves into
// the contraction's body: it is recomputed for every column of the result,
// and the contraction, no longer `ext(A) * ext(B)`, reaches neither the
// tensor cores (gpu-contractions-to-mma) nor the register-tiled FMA path.
// This pass runs the same patterns with a control function that refuses
// exactly those fusions.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUFUSEELEMENTWISETILEOPS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

/// True if `producer` only widens its single input (`yield extf(in)`). The
/// contraction lowerings read such a cast in the consumer's body, so fusing
/// it costs nothing and keeps a bf16 operand bf16.
bool isWideningCast(linalg::GenericOp producer) {
  if (producer.getNumDpsInputs() != 1)
    return false;
  Block &body = producer.getRegion().front();
  if (body.getOperations().size() != 2)
    return false;
  auto ext = dyn_cast<arith::ExtFOp>(body.front());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  return ext && ext.getIn() == body.getArgument(0) &&
         yield.getValues().size() == 1 &&
         yield.getValues().front() == ext.getResult();
}

/// True if `producer`'s body reads the value of one of its inits (it
/// accumulates into its output, as the combine of a reduce's partial into
/// its state does). Upstream's fusion keeps such a result as an output of
/// the fused op (linalg::getPreservedProducerResults).
bool readsItsInits(linalg::GenericOp producer) {
  return llvm::any_of(producer.getDpsInitsMutable(), [&](OpOperand &init) {
    return producer.payloadUsesValueFromOperand(&init);
  });
}

/// Upstream's condition (the producer has no other use), and, where the
/// consumer's map of the fused operand leaves out some of its loops (it
/// broadcasts the operand, or reduces over those loops):
/// - the producer does not read its inits. Its kept result would be written
///   at every point of the loops the map leaves out, each time from the
///   value the previous point wrote: in one thread the accumulation repeats,
///   across threads (gpu-distribute-to-threads splits those loops) it is a
///   race on the element (bb-difftest seed 9797, program 289: a LayerNorm's
///   variance combined into its reduce state, fused into the normalisation
///   of every column);
/// - a consumer with reduction loops only takes a widening cast. Otherwise
///   the producer's work would be repeated along the loops its map leaves
///   out (every column of a dot's result), inside the reduction.
bool fusionKeepsWork(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  if (!consumer || consumer.getMatchingIndexingMap(fusedOperand).isPermutation())
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (generic && readsItsInits(generic))
    return false;
  if (consumer.getNumReductionLoops() == 0)
    return true;
  return generic && isWideningCast(generic);
}

/// True if `reshape` only adds or drops dimensions of extent 1.
bool onlyUnitDims(tensor::CollapseShapeOp reshape) {
  for (ReassociationIndices group : reshape.getReassociationIndices()) {
    int64_t wide = 0;
    for (int64_t d : group)
      wide += reshape.getSrcType().getDimSize(d) != 1;
    if (wide > 1)
      return false;
  }
  return true;
}

/// Upstream's condition for folding reshapes into Linalg ops, and: a
/// collapse of unit dimensions (a batch of one dropped from a whole
/// argument) is not folded into a contraction. The fold would buy nothing
/// (the collapse is free) and gives the dot a loop of extent 1 among its
/// parallel or contracted loops, its result an expand_shape with that
/// unit dimension after the rows ([rows, 1, keys] tiles of a 2-D block):
/// the register schedules of attention take tiles as [1, .., rows,
/// columns] with the contraction's m, n and k one loop each
/// (gpu-flash-attention; docs/GPUPipeline.md, "Which attention forms take
/// wgmma").
bool producerHasOneUse(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto collapse = dyn_cast<tensor::CollapseShapeOp>(producer);
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  return !(collapse && consumer && onlyUnitDims(collapse) &&
           linalg::isaContractionOpInterface(consumer));
}

struct GPUFuseElementwiseTileOps
    : blockbuster::impl::GPUFuseElementwiseTileOpsBase<
          GPUFuseElementwiseTileOps> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // The pattern set of upstream's LinalgElementwiseOpFusionPass.
    linalg::populateElementwiseOpsFusionPatterns(patterns, fusionKeepsWork);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      producerHasOneUse);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, producerHasOneUse);
    // As upstream: a fixpoint not reached leaves a correct, less fused
    // program, not an error.
    (void)applyPatternsGreedily(
        getOperation(), std::move(patterns),
        GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
