//===- FusionVocabulary.h - What fusion rules are written in ----*- C++ -*-===//
//
// The structural operations block-fuse's rules are written in, as upstream
// Linalg writes elementwise fusion (areElementwiseOpsFusable /
// fuseElementwiseOps): for each, a public precondition that says whether
// (and with what) it applies, and a public transformation over a
// RewriterBase that does it. The rule families' PDLL patterns
// (lib/Dialect/Block/Transforms/Rules/*.pdll) state each rule's shape
// over these, declared in Rules/Common.pdll; user rules loaded at run time
// (block-fuse{rules=FILE}) use the same names.
//
// A precondition that refuses says why through `refuse` (when given): the
// PDL constraints pass the reason on as a notifyMatchFailure, which
// block-fuse{explain} prints.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONVOCABULARY_H
#define BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONVOCABULARY_H

#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace blockbuster::block {

/// Receives the reason a precondition refused a candidate.
using RefusalFn = llvm::function_ref<void(const llvm::Twine &)>;

//===----------------------------------------------------------------------===//
// Rule 1: producer-consumer map fusion.
//===----------------------------------------------------------------------===//

/// The producer to fuse into `consumer`: the first map (in program order of
/// the loads) over the same tiled axes all of whose loads in `consumer`
/// read exactly its blocks, with no other kernel on a path from it to
/// `consumer`. Null when none.
MapOp findProducerToFuse(MapOp consumer, RefusalFn refuse = {});

/// Fuses `producer` into `consumer` (findProducerToFuse): one map running
/// the producer's body first, the consumer using its tiles; the producer's
/// results that another op reads stay results of the fused map. Returns the
/// fused map.
MapOp fuseProducerIntoConsumer(mlir::RewriterBase &rewriter, MapOp producer,
                               MapOp consumer);

//===----------------------------------------------------------------------===//
// Rule 2: sibling map fusion.
//===----------------------------------------------------------------------===//

/// The earlier map to fuse `second` with: the first (in program order) over
/// the same tiled axes that reads an array `second` reads and that
/// `second` does not depend on. Null when none.
MapOp findSiblingToFuse(MapOp second, RefusalFn refuse = {});

/// Fuses sibling maps `first` and `second` (findSiblingToFuse) into one
/// map, where `second` was, running both bodies. Returns the fused map.
MapOp fuseSiblingMaps(mlir::RewriterBase &rewriter, MapOp first,
                      MapOp second);

//===----------------------------------------------------------------------===//
// Rule 8: structure normalisation.
//===----------------------------------------------------------------------===//

/// True when `reduce` runs once: its axis is whole.
bool isSingleIterationReduce(ReduceOp reduce);

/// Replaces a single-iteration reduce by its body, its terms folded once
/// into the initial state by its combine region (if it has one).
void inlineSingleIterationReduce(mlir::RewriterBase &rewriter,
                                 ReduceOp reduce);

//===----------------------------------------------------------------------===//
// PDL.
//===----------------------------------------------------------------------===//

/// Registers the vocabulary in `module` under the names Rules/Common.pdll
/// declares: the constraints HasProducerToFuse(consumer),
/// HasSiblingToFuse(second), IsSingleIterationReduce(reduce); the rewrites
/// FuseProducer(consumer), FuseWithSibling(second),
/// InlineSingleIteration(reduce), RelayoutLike(value, like) -> value and
/// Describe(what) (what the rewrite did, for block-fuse{trace}).
void registerFusionVocabulary(mlir::PDLPatternModule &module);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONVOCABULARY_H
