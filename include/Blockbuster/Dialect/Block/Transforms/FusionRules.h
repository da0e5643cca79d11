//===- FusionRules.h - The rule catalogue of block-fuse ---------*- C++ -*-===//
//
// One pattern set per rule of docs/FusionRules.md. The driver (block-fuse)
// applies the sets in a priority order, breadth-first over the program's
// hierarchy, restarting from the first rule after every rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONRULES_H
#define BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONRULES_H

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace blockbuster::block {

/// Where a rule's patterns say what they changed, for `block-fuse{trace}`.
struct FusionTrace {
  std::string message;
};

/// Rule 1: producer-consumer map fusion (multi-output).
void populateProducerConsumerFusionPatterns(mlir::RewritePatternSet &patterns,
                                            FusionTrace &trace);
/// Rule 2: sibling map fusion.
void populateSiblingFusionPatterns(mlir::RewritePatternSet &patterns,
                                   FusionTrace &trace);
/// Rule 3: map-into-reduce fusion.
void populateMapIntoReducePatterns(mlir::RewritePatternSet &patterns,
                                   FusionTrace &trace);
/// Rule 4: scale hoisting through contractions and out of reduces.
void populateScaleHoistingPatterns(mlir::RewritePatternSet &patterns,
                                   FusionTrace &trace);
/// Rule 5: shift hoisting through contractions, and the linearity it needs
/// (distributing a contraction over a sum, splitting a reduce's sums, the
/// one-pass form of a shifted square).
void populateShiftHoistingPatterns(mlir::RewritePatternSet &patterns,
                                   FusionTrace &trace);
/// Rule 6: replication of a producer into a consumer with more tiled axes.
void populateReplicationPatterns(mlir::RewritePatternSet &patterns,
                                 FusionTrace &trace);
/// Rule 7: cleanup (common subexpressions, loop-invariant code, dead
/// results).
void populateCleanupPatterns(mlir::RewritePatternSet &patterns,
                             FusionTrace &trace);
/// Rule 8: structure normalisation.
void populateStructureNormalizationPatterns(mlir::RewritePatternSet &patterns,
                                            FusionTrace &trace);
/// Rule 9: reduce-reduce fusion, including the online-softmax rewrite.
void populateReduceFusionPatterns(mlir::RewritePatternSet &patterns,
                                  FusionTrace &trace);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONRULES_H
