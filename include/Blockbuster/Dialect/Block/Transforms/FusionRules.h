//===- FusionRules.h - The rule catalogue of block-fuse ---------*- C++ -*-===//
//
// One pattern set per rule of docs/FusionRules.md. The driver (block-fuse)
// applies the sets in a priority order, breadth-first over the program's
// hierarchy, restarting from the first rule after every rewrite. Patterns
// refuse through notifyMatchFailure with a reason (block-fuse{explain}
// prints them) and say what they did through describeRewrite
// (block-fuse{trace}).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONRULES_H
#define BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONRULES_H

#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/IR/PatternMatch.h"

namespace blockbuster::block {

/// Rule 1: producer-consumer map fusion (multi-output).
void populateProducerConsumerFusionPatterns(mlir::RewritePatternSet &patterns);
/// Rule 2: sibling map fusion.
void populateSiblingFusionPatterns(mlir::RewritePatternSet &patterns);
/// Rule 3: map-into-reduce fusion.
void populateMapIntoReducePatterns(mlir::RewritePatternSet &patterns);
/// Rule 4: scale hoisting through contractions and out of reduces.
void populateScaleHoistingPatterns(mlir::RewritePatternSet &patterns);
/// Rule 4's inexact extension, added to it only on request
/// (`block-fuse{divide-after-rounding}`): dot(cast(x / s), w) becomes
/// dot(cast(x), w) / s, rounding x instead of x / s before the product.
void populateDivideAfterRoundingPatterns(mlir::RewritePatternSet &patterns);
/// The same for casts to bf16 only (`block-fuse{divide-after-bf16-rounding}`,
/// bb-compile's default): f32's exponent range, so only the rounding moves.
void populateDivideAfterBF16RoundingPatterns(
    mlir::RewritePatternSet &patterns);
/// The unit attribute that such a rewrite puts on the casts it makes: the
/// user accepts that the rounding moves past a positive scale, so rule 9's
/// online rewrite may take cast(x c) as cast(x) c (attention: P rounded
/// before its rescaling by the running maximum).
inline constexpr llvm::StringLiteral kRescalableAttr = "block.rescalable";
/// Rule 8's inexact extension, added to it only on request
/// (`block-fuse{round-dot-operands}`): a dot of an f32 tile and a tile
/// widened to f32 from a 16-bit float type contracts the f32 tile rounded
/// to that type (attention's f32 P against V widened from bf16, as PyTorch's
/// own flash kernels round P).
void populateRoundDotOperandsPatterns(mlir::RewritePatternSet &patterns);
/// Rule 5: shift hoisting through contractions, and the linearity it needs
/// (distributing a contraction over a sum, splitting a reduce's sums, the
/// one-pass form of a shifted square).
void populateShiftHoistingPatterns(mlir::RewritePatternSet &patterns);
/// Rule 6: replication of a producer into a consumer with more tiled axes.
void populateReplicationPatterns(mlir::RewritePatternSet &patterns);
void populateReplicationPatterns(mlir::RewritePatternSet &patterns,
                                 ReplicationOptions options);
/// Rule 7: cleanup (common subexpressions, loop-invariant code, dead
/// results).
void populateCleanupPatterns(mlir::RewritePatternSet &patterns);
/// Rule 8: structure normalisation.
void populateStructureNormalizationPatterns(mlir::RewritePatternSet &patterns);
/// Rule 9: reduce-reduce fusion, including the online-softmax rewrite.
void populateReduceFusionPatterns(mlir::RewritePatternSet &patterns);
/// Rule 10: axis untying of a materialised operand's kernels (the extend
/// step).
void populateAxisUntyingPatterns(mlir::RewritePatternSet &patterns);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONRULES_H
