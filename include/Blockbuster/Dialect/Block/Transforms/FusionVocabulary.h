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

/// The earlier map to fuse `second` with: the first (in program order) that
/// writes an array, iterates the same tiled axes, reads an array `second`
/// reads and that `second` does not depend on. Null when none.
MapOp findSiblingToFuse(MapOp second, RefusalFn refuse = {});

/// Fuses sibling maps `first` and `second` (findSiblingToFuse) into one
/// map, where `second` was, running both bodies. Returns the fused map.
MapOp fuseSiblingMaps(mlir::RewriterBase &rewriter, MapOp first,
                      MapOp second);

//===----------------------------------------------------------------------===//
// Rules 3 and 6: a producer map cloned into a reduce that loads its blocks.
//===----------------------------------------------------------------------===//

/// Decides whether the producer that `reduce` reads through `load` is
/// cloned into it (a rule's profitability); says why not through `refuse`.
using CloningControlFn = llvm::function_ref<bool(
    LoadOp load, MapOp producer, ReduceOp reduce, RefusalFn refuse)>;

/// Rule 3's control: the producer is cheap (no reduce of its own, at most
/// one input as large as its output) or a contraction read only here over
/// exactly the axes iterated here, and recomputing it here cannot leave
/// the program moving more global bytes (docs/FusionRules.md, "Rule 3 in
/// bytes"). Rule 6 (the extend step) clones the producers it refuses.
bool isProfitableToFuseIntoReduce(LoadOp load, MapOp producer, ReduceOp reduce,
                                  RefusalFn refuse = {});

/// The producer to clone into `reduce`: the first map (in the order of the
/// loads of the reduce's body) that iterates the reduce's axis, whose body
/// names no axis iterated here and not by it, whose results the body's
/// loads read at the current iteration's block, and that `control` takes.
/// Null when none.
MapOp findProducerToCloneIntoReduce(ReduceOp reduce, CloningControlFn control,
                                    RefusalFn refuse = {});

/// Clones the body of `producer` at the start of `reduce`'s body in place
/// of its loads of the producer's results.
void cloneProducerIntoReduce(mlir::RewriterBase &rewriter, MapOp producer,
                             ReduceOp reduce);

//===----------------------------------------------------------------------===//
// Rules 4 and 5, the parts on reduces with built-in combiners.
//===----------------------------------------------------------------------===//

/// Rule 4: the first add-combined term of `reduce` that is a product (or
/// quotient) by a value defined outside the loop.
std::optional<unsigned> findScaleToHoistOutOfReduce(ReduceOp reduce,
                                                    RefusalFn refuse = {});
/// sum_j (u_j * s) = (sum_j u_j) * s (and / s) for term `index`
/// (findScaleToHoistOutOfReduce). Returns the new reduce.
ReduceOp hoistScaleOutOfReduce(mlir::RewriterBase &rewriter, ReduceOp reduce,
                               unsigned index);

/// Rule 5: the first add-combined term of `reduce` that is a sum or
/// difference computed in the loop.
std::optional<unsigned> findLinearTermToSplit(ReduceOp reduce,
                                              RefusalFn refuse = {});
/// Splits term `index` (findLinearTermToSplit) p +- q into two add
/// accumulators combined after the loop. Returns the new reduce.
ReduceOp splitLinearTerm(mlir::RewriterBase &rewriter, ReduceOp reduce,
                         unsigned index);

/// Rule 5: the first add-combined term of `reduce` that is the square of
/// x - u, u defined outside the loop, summed over the reduce's axis alone,
/// with x having a pivot p (and u not being it).
std::optional<unsigned> findShiftedSquare(ReduceOp reduce,
                                          RefusalFn refuse = {});
/// sum (x - u)^2 = S2 - e (2 S1 - n e), e = u - p, for term `index`
/// (findShiftedSquare): the loop accumulates S2 = sum (x - p)^2 and
/// S1 = sum (x - p). Returns the new reduce.
ReduceOp expandShiftedSquare(mlir::RewriterBase &rewriter, ReduceOp reduce,
                             unsigned index);

//===----------------------------------------------------------------------===//
// Rule 6: replication (the extend step).
//===----------------------------------------------------------------------===//

/// Which replications rule 6 takes.
struct ReplicationOptions {
  /// Only producers whose body names an axis the consumer iterates and it
  /// does not, all inside reduces over that axis: the replica's reduces
  /// iterate a fresh copy of the axis (a LayerNorm's statistics over the
  /// features, recomputed in each block of a map over rows and feature
  /// blocks). Without it, those producers are refused and all others taken.
  /// block-fuse's extend step runs the renaming replications in a second
  /// phase: taken first, one would pre-empt a better replication (the
  /// statistics and the normalisation both into a matmul, LayerNorm +
  /// matmul M16).
  bool renameReducedAxes = false;
};

/// The producer to replicate into `consumer`: the first map whose array a
/// load directly in `consumer`'s body reads, over a proper subset of its
/// axes, whose body names no axis `consumer` iterates and it does not
/// (except as `options` allows), and whose blocks every such load reads
/// exactly. Null when none.
MapOp findProducerToReplicate(MapOp consumer, RefusalFn refuse = {},
                              ReplicationOptions options = {});

/// Runs `producer`'s body in `consumer` (findProducerToReplicate), once per
/// instance, in place of the loads of its results.
void replicateProducer(mlir::RewriterBase &rewriter, MapOp producer,
                       MapOp consumer);

//===----------------------------------------------------------------------===//
// Rule 10: axis untying (the extend step).
//===----------------------------------------------------------------------===//

/// The kernels that rule 10 gives axes of their own: a materialised operand's
/// kernel and the kernels of its row statistics, with the axis their rows
/// run along.
struct UntyingRegion {
  /// The region's maps, in program order; the operand's kernel is the last.
  llvm::SmallVector<MapOp> maps;
  /// The axis the operand's consumer reduces over and the region's
  /// statistics reduce over: whole in the region's copy.
  mlir::StringAttr rowAxis;
};

/// The region to untie at `producer`: `producer` is a kernel with no reduce
/// of its own whose array only loads in other kernels read, one of them in
/// a reduce over an axis `producer` iterates (its array is materialised for
/// that loop: LayerNorm's normalised X before a GEMM); with it, the kernels
/// whose results only the region reads, transitively, at least one of them
/// reducing over that axis (the row statistics). Every reduce of the region
/// is over that axis, no dot of it is on 16-bit floats (row work, not
/// matrix work), and the axis is at most `kMaxUntiedRow` long (a whole row
/// on chip). Null when there is none.
std::optional<UntyingRegion> findRegionToUntie(MapOp producer,
                                               RefusalFn refuse = {});

/// The longest row rule 10 keeps whole on chip: the largest whole-threshold
/// of the GPU compiler's conversions (GPUCompile.cpp, a row kernel that
/// keeps its row on chip and reads it once).
inline constexpr int64_t kMaxUntiedRow = 16384;

/// Gives the maps of `region` (findRegionToUntie) fresh copies of every
/// tiled axis they name, the row axis's copy whole: they no longer iterate
/// it, their reduces over it run once (rule 8 inlines them), and block-select
/// chooses their blocks apart from the other kernels'. The rest of the
/// program reads their arrays as before.
void untieRegion(mlir::RewriterBase &rewriter, const UntyingRegion &region);

//===----------------------------------------------------------------------===//
// Rule 9: reduce-reduce fusion, online softmax.
//===----------------------------------------------------------------------===//

/// The earlier reduce (over the same axis, in the same block, with results)
/// to fuse `second` with, nearest first, and whether that is the
/// online-softmax rewrite: `second` reads the earlier one's running maximum
/// m only through exp(x - m). Null when none.
ReduceOp findReduceToFuse(ReduceOp second, RefusalFn refuse = {});

/// Fuses `first` and `second` (findReduceToFuse) into one reduce where
/// `second` was, with a tuple state; with the online-softmax rewrite when
/// `second` reads `first`'s maximum. Returns the fused reduce.
ReduceOp fuseReduces(mlir::RewriterBase &rewriter, ReduceOp first,
                     ReduceOp second);

/// True when `second` reads a result of `first` (the fusion is then the
/// online-softmax rewrite).
bool readsRunningMaximum(ReduceOp first, ReduceOp second);

//===----------------------------------------------------------------------===//
// Rule 8: structure normalisation.
//===----------------------------------------------------------------------===//

/// True when `reduce` runs once: its axis is whole.
bool isSingleIterationReduce(ReduceOp reduce);

/// Replaces a single-iteration reduce by its body, its terms folded once
/// into the initial state by its combine region (if it has one).
void inlineSingleIterationReduce(mlir::RewriterBase &rewriter,
                                 ReduceOp reduce);

/// True when `transposed` (a broadcast's result) has exactly the axes of
/// `x`, in another order: a transpose, which a dot does not need (it
/// contracts by axis name).
bool isTransposeOf(mlir::Value transposed, mlir::Value x);

/// True when `lhs` and `rhs` are tiles of one 16-bit float type (f16 or
/// bf16) and `dot` contracts their widenings to f32: products of two 16-bit
/// floats are exact in f32, so the dot of the 16-bit tiles, which also
/// sums in f32, is the same contraction.
bool areWidenedFromOne16BitType(mlir::Value lhs, mlir::Value rhs,
                                mlir::Operation *dot);

/// True when `constant` is a block.constant whose float value `narrow`'s
/// element type holds exactly, and `widened` is `narrow` cast to a wider
/// float type: a comparison of `widened` with `constant` is then the same
/// comparison of `narrow` with the value in `narrow`'s type.
bool isExactInNarrowerType(mlir::Value constant, mlir::Value widened,
                           mlir::Value narrow);
/// `constant` (isExactInNarrowerType) as a constant of `like`'s element
/// type.
mlir::Value narrowConstant(mlir::RewriterBase &rewriter, mlir::Value constant,
                           mlir::Value like);

/// True when `cast` converts a float block.constant to another float type.
bool isCastOfFloatConstant(mlir::Operation *cast);
/// That constant rounded (to nearest even, as block.cast rounds) to the
/// cast's element type: the cast folded.
mlir::Value foldCastOfConstant(mlir::RewriterBase &rewriter,
                               mlir::Operation *cast);

/// True when `root` is `min(c, true)` (an `and` with true) of an i1 tile c
/// whose type is the result's: c itself.
bool isAndWithTrue(mlir::Operation *root);
/// The c of such a `min(c, true)`.
mlir::Value getAndOperand(mlir::Operation *root);

/// True when `root` compares `a - b` with the integer 0, a and b positions
/// (block.iota, possibly cast to a 64-bit integer: no overflow), or compares
/// two positions widened to one integer type: the same comparison of the
/// positions themselves (torch-mlir's causal mask `j - i <= 0` on i64).
bool isComparisonOfPositions(mlir::Operation *root);
/// That comparison of the positions, relaid out to `root`'s type.
mlir::Value compareThePositions(mlir::RewriterBase &rewriter,
                                mlir::Operation *root);

/// True when `root` is `x + select(c, a, b)`, x a float tile and a, b scalar
/// constants (torch-mlir's additive attention mask: 0 where kept, -inf
/// where masked), c's axes all x's.
bool isSumWithSelectOfConstants(mlir::Operation *root);
/// `select(c, x + a, x + b)` with the mask broadcast to `root`'s axes: the
/// same sums (addition distributes over a choice), which the code generator
/// reads as S kept by a mask.
mlir::Value distributeSumOverSelect(mlir::RewriterBase &rewriter,
                                    mlir::Operation *root);

/// True when `root` is a tile_reduce `min` (all) of `x == -inf` over some
/// axes, x a float tile: that is `max(x) == -inf` over the same axes (a
/// maximum is -inf exactly when every element is; with a NaN both are
/// false, as `max` propagates it).
bool isAllMinusInfinity(mlir::Operation *root);
/// Rewrites such a tile_reduce as max(x) == -inf; returns the comparison.
mlir::Value compareMaximumWithMinusInfinity(mlir::RewriterBase &rewriter,
                                            mlir::Operation *root);

/// The state element of `reduce` (built-in combiners) combined with `min`
/// whose term is `t == -inf`, t a float tile: the loop may track max(t)
/// instead and compare once after it (the same fact as isAllMinusInfinity,
/// across iterations). Then the maximum is a state rule 9 and cleanup merge
/// with softmax's running maximum.
std::optional<unsigned> findAllMinusInfinityState(ReduceOp reduce);
/// Tracks max(t) in that state element and compares it with -inf after the
/// loop. Returns the new reduce.
ReduceOp trackMaximumInstead(mlir::RewriterBase &rewriter, ReduceOp reduce,
                             unsigned index);

//===----------------------------------------------------------------------===//
// PDL.
//===----------------------------------------------------------------------===//

/// Registers the vocabulary in `module` under the names Rules/Common.pdll
/// declares: the tiers (Buffered, Unbuffered: all of a range of values are
/// arrays, or tiles); per operation a constraint and a rewrite, the
/// constraint giving the op the root links to through a region as that op's
/// results (ProducerToFuse) where the rule involves two, and the rewrite
/// taking them; RelayoutLike(value, like) -> value; and Describe(what), what
/// the rewrite did, for block-fuse{trace}.
void registerFusionVocabulary(mlir::PDLPatternModule &module,
                              ReplicationOptions replication = {});

/// The constraint whose results rewrite `rewrite` of the vocabulary takes
/// as its first argument, with that constraint's root as its second
/// (FuseProducer(ProducerToFuse(consumer), consumer)); empty when it takes
/// no link. The rewrite trusts the link: a user rule that hands it other
/// values is refused when it is loaded (block-fuse{rules=}).
llvm::StringRef getLinkConstraint(llvm::StringRef rewrite);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_DIALECT_BLOCK_TRANSFORMS_FUSIONVOCABULARY_H
