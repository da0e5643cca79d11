//===- MapIntoReduce.cpp - Rule 3 -----------------------------------------===//
//
// Rule 3, map-into-reduce fusion: a reduce over axis J that loads, in
// iteration j, block j of an array that a map P over [..., J] writes, runs
// P's body itself instead. The reduce's combiner is associative, so the
// blocks of P are consumed in the order they are produced and the array is
// never written for this reader. P keeps running for its other readers, if
// any, until they absorb it too (then the cleanup rule removes it).
//
// The vocabulary (findProducerToCloneIntoReduce with the profitability
// isProfitableToFuseIntoReduce as its control function,
// cloneProducerIntoReduce) is here, shared with rule 6; the pattern is
// MapIntoReduce.pdll.
//
//===----------------------------------------------------------------------===//

#include "../FusionDriver/FusionUtils.h"
#include "Blockbuster/Dialect/Block/Analysis/KernelCost.h"
#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

/// Global bytes that running `producer`'s body in `block` adds: the loads of
/// its body, iterated as there, minus the loads of its results in `block`
/// it replaces. A load of the body's top level that does not vary along the
/// axis of a reduce holding `block` counts once per pass of that loop: rule 7
/// hoists it out (the Q block of attention's scores).
static int64_t countRecomputationBytes(MapOp producer, Block &block,
                                       const BlockSizes &sizes) {
  SmallVector<StringAttr> iterated = getIteratedAxes(&block.front());
  auto loop = dyn_cast<ReduceOp>(block.getParentOp());
  int64_t bytes = 0;
  for (LoadOp load : block.getOps<LoadOp>())
    if (getProducerMap(load.getSource()) == producer)
      bytes -= countLoadBytes(load, iterated, sizes);
  producer.getBody().walk([&](LoadOp load) {
    SmallVector<StringAttr> axes = iterated;
    if (loop && load->getParentOp() == producer &&
        !cast<TileType>(load.getType()).hasAxis(loop.getAxisAttr()))
      axes.pop_back();
    // The producer's own loops around the load.
    SmallVector<StringAttr> inner;
    for (Operation *op = load->getParentOp(); op != producer;
         op = op->getParentOp())
      if (auto reduce = dyn_cast<ReduceOp>(op))
        inner.push_back(reduce.getAxisAttr());
    axes.append(inner.rbegin(), inner.rend());
    bytes += countLoadBytes(load, axes, sizes);
  });
  return bytes;
}

/// Whether recomputing `producer` in `body` (a reduce's) can leave the
/// program's global bytes above what they are. A recomputation that adds no
/// bytes is always taken. One that adds some is an investment in removing
/// the producer: taken only when every reader of the producer's results is
/// a load of its block that could run its body instead (no view, no
/// returned array), and the bytes all of them would add stay within what
/// the producer's kernel moves (its loads and its results), which goes when
/// the last reader has absorbed it. That keeps exp(s - m) of attention,
/// which reads m as well as s, and refuses a matmul recomputed per block of
/// a softmax, or a row sum recomputed by a reduction while it stays alive
/// for another reader.
static bool recomputationMayAddBytes(MapOp producer, Block &body) {
  BlockSizes sizes(producer->getParentOfType<ProgramOp>(), /*overrides=*/{},
                   kJudgedBlockSize);
  if (countRecomputationBytes(producer, body, sizes) <= 0)
    return false;
  llvm::SetVector<Block *> readers;
  for (OpResult result : producer->getResults())
    for (Operation *user : result.getUsers()) {
      auto load = dyn_cast<LoadOp>(user);
      if (!load ||
          !readsProducedBlock(load, producer, result.getResultNumber()))
        return true;
      readers.insert(load->getBlock());
    }
  int64_t added = 0;
  for (Block *reader : readers)
    added += std::max<int64_t>(
        0, countRecomputationBytes(producer, *reader, sizes));
  return added > countKernelBytes(producer, sizes);
}

/// The first axis of the map around `reduce` that the producer's result
/// loaded by `load` does not have, with more than one block at the sizes
/// block-fuse judges by, when that result is an operand of a dot on 16-bit
/// floats in the reduce (through elementwise ops): the producer's body
/// would run once per block of that axis on the matrix instructions' warps.
/// Null otherwise, and where the producer's rows along the reduce's axis
/// are not whole rows of 16-byte vectors over a warp (32 x 16 bytes; 256
/// bf16): kept, the producer would be a kernel of partial rows on the GPU's
/// generic path (docs/GPUPipeline.md, "Row kernels"), slower than the
/// recomputation it replaces (LayerNorm + matmul at K 2056).
static StringAttr getRepeatingAxis(LoadOp load, MapOp producer,
                                   ReduceOp reduce) {
  constexpr int64_t kWarpRowBytes = 32 * 16;
  auto tile = cast<TileType>(load.getType());
  int64_t elementBytes =
      std::max<int64_t>(1, tile.getElementType().getIntOrFloatBitWidth() / 8);
  auto program = producer->getParentOfType<ProgramOp>();
  BlockSizes sizes(program, /*overrides=*/{}, kJudgedBlockSize);
  if ((sizes.getExtent(reduce.getAxisAttr()) * elementBytes) % kWarpRowBytes)
    return {};
  SmallVector<Value> worklist = {load.getResult()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  bool feedsMatrixDot = false;
  while (!worklist.empty() && !feedsMatrixDot) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user->getBlock() != load->getBlock() || !seen.insert(user).second)
        continue;
      if (auto dot = dyn_cast<DotOp>(user)) {
        auto isHalf = [](Value operand) {
          Type element = cast<TileType>(operand.getType()).getElementType();
          return element.isF16() || element.isBF16();
        };
        feedsMatrixDot |= isHalf(dot.getLhs()) && isHalf(dot.getRhs());
        continue;
      }
      if (user->getNumRegions() || user->getNumResults() != 1 ||
          !isa<TileType>(user->getResult(0).getType()))
        continue;
      worklist.push_back(user->getResult(0));
    }
  }
  if (!feedsMatrixDot)
    return {};
  auto consumer = reduce->getParentOfType<MapOp>();
  if (!consumer)
    return {};
  for (Attribute attr : consumer.getAxes()) {
    auto axis = cast<StringAttr>(attr);
    if (!llvm::is_contained(producer.getAxes(), axis) &&
        sizes.getNumBlocks(axis) > 1)
      return axis;
  }
  return {};
}

bool blockbuster::block::isProfitableToFuseIntoReduce(LoadOp load,
                                                      MapOp producer,
                                                      ReduceOp reduce,
                                                      RefusalFn refuse) {
  // Recomputation is accepted only for cheap producers, whose bodies hold
  // no reduce of their own and read at most one input as large as their
  // output (a few ops per element: the scores of attention, a
  // normalisation): such a producer may stay for other
  // readers, and may run once per block of axes iterated here but not by
  // it. A producer with a reduce (a contraction) moves only when this is
  // its sole reader and its axes are exactly the ones iterated here;
  // anything more would repeat its contraction (rule 6 decides that, in
  // the extend step, and keeps it only when it pays).
  SmallVector<StringAttr> iteratedSet = getIteratedAxes(reduce);
  iteratedSet.push_back(reduce.getAxisAttr());
  llvm::sort(iteratedSet, [](StringAttr a, StringAttr b) {
    return a.getValue() < b.getValue();
  });
  bool onlyReader = llvm::all_of(producer->getUsers(), [&](Operation *u) {
    return reduce->isAncestor(u);
  });
  // Cheap: no reduce of its own, and at most one input as large as its
  // output (a tile with all of the output's axes). Recomputing such a
  // producer reads no more than the array it replaces; a producer with
  // two (a residual add, h = proj + h_prev) would make each recomputation
  // read more, and chains of them would recompute a whole residual stream.
  auto output = cast<TileType>(
      producer.getYield()
          .getOperand(cast<OpResult>(load.getSource()).getResultNumber())
          .getType());
  unsigned largeInputs = 0;
  bool hasReduce = false;
  producer.getBody().walk([&](Operation *op) {
    if (isa<ReduceOp>(op))
      hasReduce = true;
    if (auto input = dyn_cast<LoadOp>(op)) {
      auto tile = cast<TileType>(input.getType());
      if (llvm::all_of(output.getAxes(),
                       [&](StringAttr axis) { return tile.hasAxis(axis); }))
        ++largeInputs;
    }
  });
  bool cheap = !hasReduce && largeInputs <= 1;
  bool sameAxes = getSortedMapAxes(producer) == iteratedSet;
  if (!cheap && !(onlyReader && sameAxes)) {
    if (refuse)
      refuse(!hasReduce   ? "reads more than one input as large as its output "
                            "(left to replication)"
             : onlyReader ? "a contraction whose axes are not the ones "
                            "iterated here (left to replication)"
                          : "a contraction with other readers (left to "
                            "replication)");
    return false;
  }
  // A fusion that may leave the program moving more global bytes is a
  // speculation like a replication: the extend step tries it and keeps it
  // only when the estimated time drops (the normalised X of a decode
  // LayerNorm + matmul, recomputed per block of output columns, costs
  // less than a launch and a round trip through global memory).
  if (recomputationMayAddBytes(producer, reduce.getBody().front())) {
    if (refuse)
      refuse("recomputing it here may add global bytes (left to the extend "
             "step)");
    return false;
  }
  // So is one that adds no bytes but repeats the producer's work as the
  // matrix operand of a 16-bit dot, once per block of the consumer's
  // other axes: a GEMM that normalises its A tiles (LayerNorm + matmul)
  // computes each element once per block of output columns, on the warps
  // that issue its matrix instructions. The extend step weighs that work
  // (the cost model's prologue term) against the round trip of the
  // producer's array (docs/FusionReport.md, "Prologues").
  if (StringAttr axis = getRepeatingAxis(load, producer, reduce)) {
    if (refuse)
      refuse("recomputed as a 16-bit dot operand once per block of " +
             axis.getValue() + " (left to the extend step)");
    return false;
  }
  return true;
}

MapOp blockbuster::block::findProducerToCloneIntoReduce(
    ReduceOp reduce, CloningControlFn control, RefusalFn refuse) {
  Block &body = reduce.getBody().front();
  auto consumer = reduce->getParentOfType<MapOp>();
  // The axes iterated where the producer's body would run.
  SmallVector<StringAttr> iterated = getIteratedAxes(reduce);
  iterated.push_back(reduce.getAxisAttr());
  // The first producer whose loads directly in this body all read the
  // block of the current iteration, and whose body does not name an axis
  // iterated here but not by the producer (fix: a producer over [J] that
  // sums a load over the whole of M was moved into a map over [M], where
  // the load reads one block of M, and summed one block only), that the
  // control function takes.
  for (LoadOp load : body.getOps<LoadOp>()) {
    MapOp candidate = getProducerMap(load.getSource());
    if (!candidate || candidate == consumer)
      continue;
    auto refuseCandidate = [&](const Twine &reason) {
      if (refuse)
        refuse("map at " + describeLocation(candidate.getLoc()) + ": " +
               reason);
    };
    if (!llvm::is_contained(candidate.getAxes(), reduce.getAxisAttr())) {
      refuseCandidate("does not iterate the reduce's axis " + reduce.getAxis());
      continue;
    }
    if (!canCloneBodyUnder(candidate, iterated)) {
      refuseCandidate("its body names an axis iterated here and not by it");
      continue;
    }
    if (!loadsReadProducedBlocks(body, candidate)) {
      refuseCandidate("a load of its result does not read the block of the "
                      "current iteration");
      continue;
    }
    if (!control(load, candidate, reduce, refuseCandidate))
      continue;
    return candidate;
  }
  if (refuse)
    refuse("no map whose array it loads can run in its body");
  return {};
}

void blockbuster::block::cloneProducerIntoReduce(RewriterBase &rewriter,
                                                 MapOp producer,
                                                 ReduceOp reduce) {
  inlineProducerLoads(rewriter, producer, reduce.getBody().front());
}

#include "Rules/MapIntoReduce.h.inc"

void blockbuster::block::populateMapIntoReducePatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
