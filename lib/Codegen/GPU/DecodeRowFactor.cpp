//===- DecodeRowFactor.cpp - RMSNorm's row factor after a decode GEMV -----===//
//
// RMSNorm + projection at decode sizes is one kernel: every block first sums
// the squares of all of X's rows (its statistics loop), then streams its
// slice of the weights against `truncf(x * rstd * gamma)`. With the reduce
// split across blocks (gpu-split-reductions) every block of every split
// reads all of X for those sums: at M16 K4096 N4096, 256 blocks x 128 KB,
// as many bytes through L2 as the weights themselves, and the weights wait
// for the sums (docs/performance.md, session 11).
//
// This pass leaves the row factor (rstd, a function of the row's sum alone)
// to the accumulator, as gpu-warpgroup-matmul's register-A prologue does on
// Hopper GEMM blocks (docs/GPUPipeline.md, "Norm + matmul on Hopper", the
// row factor in the epilogue):
// the A element becomes `truncf(x * gamma)`, and after the dot loop each
// accumulator row is multiplied by its factor. The sum of squares is then
// needed only after the loop, so the statistics loop's work moves into the
// dot loop, over the same tiles of X that the prologue reads: each split
// sums the squares of its own k range, and gpu-split-reductions combines
// those partial sums with the accumulators' (an accumulation `out = out +
// x` like theirs), before the epilogue that now applies the factor.
// gpu-decode-gemv then takes the squares from the A fragments it loads
// anyway: X is read once per block and k range.
//
// Numerics: the program rounds `x * rstd * gamma` to bf16 and sums those;
// the kernel rounds `x * gamma` and multiplies the f32 sum by rstd. Both
// round each element once to bf16 (relative error 2^-9), so the results
// differ by rounding noise of the program's own size, not by a bias: the
// argument and the measurements of the Hopper schedule, which does the
// same by default (docs/GPUPipeline.md). `bb-compile --decode-row-factor=false`
// keeps the body as written.
//
// Taken: a block grid's top-level dot loop whose 16-bit contractions of at
// most 16 rows (a decode block; at M1 a vector-matrix product, given its
// unit rows dimension back first as gpu-decode-gemv does) read one A tile
// computed by an elementwise prologue of a raw tile of X (WarpgroupPrologue.h)
// whose only row input is the sum of squares of X's rows, accumulated by a loop
// over the same k steps before it and used in the row factor alone
// (PrologueStatistics.h), each contraction added into an accumulator tile of
// the block.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "PrologueStatistics.h"
#include "TileContractions.h"
#include "UnitRows.h"
#include "WarpgroupPrologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpu-decode-row-factor"

namespace blockbuster {
#define GEN_PASS_DEF_GPUDECODEROWFACTOR
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

namespace {

// The most rows of a decode block: one mma.sync m16 tile (DecodeGemv.cpp).
constexpr int64_t kDecodeRows = 16;

using Lowering = WarpgroupPrologueLowering;

LogicalResult fail(Operation *op, const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "row factor kept: " << reason << ": " << *op
                          << "\n");
  return failure();
}

/// A decode block's dot loop whose prologue's row factor can move to the
/// accumulators.
struct RowFactorLoop {
  scf::ForOp loop;
  SmallVector<linalg::GenericOp> dots;
  SmallVector<Value> accumulators;
  WarpgroupPrologue prologue;
  PrologueStatistics statistics;
  Lowering::RowFactor factor;
  DenseMap<Operation *, Lowering::Part> parts;
};

/// The precondition.
FailureOr<RowFactorLoop> matchRowFactorLoop(scf::ForOp loop) {
  RowFactorLoop r;
  r.loop = loop;
  for (auto generic : loop.getBody()->getOps<linalg::GenericOp>())
    if (matchTileContraction(generic))
      r.dots.push_back(generic);
  if (r.dots.empty())
    return fail(loop, "no contraction in the loop");
  Value a = r.dots.front().getDpsInputs()[0];
  auto aType = dyn_cast<MemRefType>(a.getType());
  if (!aType || !aType.hasStaticShape() || aType.getRank() != 2 ||
      aType.getDimSize(0) > kDecodeRows)
    return fail(loop, "not a decode block (an A tile of at most 16 rows)");
  SmallVector<Operation *> siblings;
  for (linalg::GenericOp dot : r.dots) {
    if (dot.getDpsInputs()[0] != a)
      return fail(dot, "contractions of different A tiles");
    std::optional<AccumulationFold> fold = findAccumulationFold(dot);
    if (!fold || loop->isAncestor(fold->acc.getParentBlock()->getParentOp()))
      return fail(dot, "a contraction not added into an accumulator tile "
                       "of the block");
    r.accumulators.push_back(fold->acc);
    if (dot != r.dots.front())
      siblings.push_back(dot);
  }
  FailureOr<WarpgroupPrologue> prologue =
      matchWarpgroupPrologue(r.dots.front(), loop, siblings);
  if (failed(prologue))
    return fail(loop, "A is not computed by an elementwise prologue");
  r.prologue = *prologue;
  // The only row input: the sum of squares, in the row factor alone.
  FailureOr<PrologueStatistics> statistics =
      matchPrologueStatistics(r.prologue, loop);
  if (failed(statistics))
    return fail(r.prologue.op, "the row input is not the sum of squares of "
                               "the raw tile, in the row factor alone");
  r.statistics = *statistics;
  r.parts = Lowering::classifyParts(r.prologue);
  std::optional<Lowering::RowFactor> factor =
      Lowering::matchRowFactor(r.prologue, r.parts);
  if (!factor)
    return fail(r.prologue.op, "no row factor");
  r.factor = *factor;
  return r;
}

/// The product of `factors` (as mapped), left to right.
Value product(OpBuilder &b, Location loc, ArrayRef<Value> factors,
              const IRMapping &mapping) {
  Value result = mapping.lookupOrDefault(factors.front());
  for (Value factor : factors.drop_front())
    result =
        arith::MulFOp::create(b, loc, result, mapping.lookupOrDefault(factor));
  return result;
}

/// The prologue without its row input: `truncf(element factors)`, the ops
/// of the row part and of the row factor's product left out.
void replacePrologue(RewriterBase &rewriter, RowFactorLoop &r) {
  linalg::GenericOp op = r.prologue.op;
  Block *body = op.getBody();
  OpOperand *rowInput = r.prologue.rowInputs.front();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (input == rowInput)
      continue;
    inputs.push_back(input->get());
    maps.push_back(op.getMatchingIndexingMap(input));
  }
  maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  rewriter.setInsertionPoint(op);
  linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange{}, inputs, op.getDpsInits(), maps,
      op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        IRMapping mapping;
        int64_t next = 0;
        for (OpOperand *input : op.getDpsInputOperands())
          if (input != rowInput)
            mapping.map(body->getArgument(input->getOperandNumber()),
                        args[next++]);
        for (Operation &inner : body->without_terminator()) {
          if (r.parts.lookup(&inner) == Lowering::Part::Row ||
              r.factor.products.contains(&inner) || &inner == r.factor.round)
            continue;
          b.clone(inner, mapping);
        }
        Value rounded = arith::TruncFOp::create(
            b, loc, r.factor.round->getResult(0).getType(),
            product(b, loc, r.factor.elementFactors, mapping));
        linalg::YieldOp::create(b, loc, rounded);
      });
  rewriter.eraseOp(op);
}

/// After the loop: each accumulator row times its row factor, from the
/// sums of squares (the prologue's row part on them).
void scaleAccumulators(RewriterBase &rewriter, RowFactorLoop &r) {
  linalg::GenericOp op = r.prologue.op;
  Block *body = op.getBody();
  Value sums = r.statistics.tile.getResult();
  Value rowArg =
      body->getArgument(r.prologue.rowInputs.front()->getOperandNumber());
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr m = getAffineDimExpr(0, ctx);
  AffineMap rowMap = AffineMap::get(2, 0, {m}, ctx);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
  rewriter.setInsertionPointAfter(r.loop);
  for (Value acc : r.accumulators) {
    linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{}, ValueRange{sums}, ValueRange{acc},
        ArrayRef<AffineMap>{rowMap, identity},
        SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          IRMapping mapping;
          mapping.map(rowArg, args[0]);
          // The row part, and the constants it reads.
          for (Operation &inner : body->without_terminator()) {
            Lowering::Part part = r.parts.lookup(&inner);
            if (part == Lowering::Part::Row ||
                part == Lowering::Part::Invariant)
              b.clone(inner, mapping);
          }
          Value scale = product(b, loc, r.factor.rowFactors, mapping);
          linalg::YieldOp::create(
              b, loc,
              arith::MulFOp::create(b, loc, args[1], scale).getResult());
        });
  }
}

/// The transformation: the statistics loop's body after the prologue (its
/// iteration as the dot loop's, its view of X the prologue's: the same
/// tile, matchStatisticsLoop), the prologue without the row factor, the
/// accumulators scaled after the loop.
void moveRowFactor(RewriterBase &rewriter, RowFactorLoop &r) {
  scf::ForOp statisticsLoop = r.statistics.accumulation.loop;
  rewriter.setInsertionPointAfter(r.prologue.op);
  IRMapping mapping;
  mapping.map(statisticsLoop.getInductionVar(), r.loop.getInductionVar());
  for (auto squares : statisticsLoop.getBody()->getOps<linalg::GenericOp>())
    if (Value view = sumOfSquaresInput(squares))
      mapping.map(view, r.prologue.raw.getResult());
  SmallVector<Operation *> cloned;
  for (Operation &op : statisticsLoop.getBody()->without_terminator())
    if (op.getNumResults() != 1 || !mapping.contains(op.getResult(0)))
      cloned.push_back(rewriter.clone(op, mapping));
  // The index arithmetic of the view the prologue's replaces.
  for (Operation *op : llvm::reverse(cloned))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  rewriter.eraseOp(statisticsLoop);
  scaleAccumulators(rewriter, r);
  replacePrologue(rewriter, r);
}

/// Moves the row factors of `grid`'s dot loops; failure where none
/// qualifies.
LogicalResult moveRowFactors(RewriterBase &rewriter, scf::ForallOp grid) {
  std::vector<RowFactorLoop> found;
  for (auto loop : grid.getBody()->getOps<scf::ForOp>())
    if (FailureOr<RowFactorLoop> r = matchRowFactorLoop(loop); succeeded(r))
      found.push_back(std::move(*r));
  if (found.empty())
    return failure();
  for (RowFactorLoop &r : found)
    moveRowFactor(rewriter, r);
  return success();
}

struct GPUDecodeRowFactor
    : blockbuster::impl::GPUDecodeRowFactorBase<GPUDecodeRowFactor> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> grids = collectBlockGrids(getOperation());
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp grid : grids) {
      // At M1 the matchers need rows: on a copy, the block gets its unit
      // rows dimension back first (UnitRows.h, as gpu-decode-gemv does),
      // kept only where a row factor moves.
      SmallVector<Operation *> ops = opsUpToVectorMatrixLoop(grid);
      if (ops.empty()) {
        (void)moveRowFactors(rewriter, grid);
        continue;
      }
      rewriter.setInsertionPoint(grid);
      auto copy = cast<scf::ForallOp>(rewriter.clone(*grid));
      std::string reason;
      if (succeeded(
              addUnitRows(rewriter, opsUpToVectorMatrixLoop(copy), reason)) &&
          succeeded(moveRowFactors(rewriter, copy))) {
        rewriter.eraseOp(grid);
        continue;
      }
      LLVM_DEBUG(llvm::dbgs() << "row factor kept at M1: " << reason << "\n");
      rewriter.eraseOp(copy);
    }
  }
};

} // namespace
