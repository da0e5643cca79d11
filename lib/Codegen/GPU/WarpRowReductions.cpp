//===- WarpRowReductions.cpp - One warp per row for tile reductions -------===//
//
// gpu-distribute-to-threads keeps a reduction whole inside one thread: a
// row of a 64 x 64 tile is 64 dependent adds on one lane while 31 others of
// its warp wait at the barrier. This pass gives each row to a warp instead:
// lanes fold strided elements (lane, lane + 32, ...; consecutive lanes read
// consecutive elements) from the combiner's identity, a butterfly of
// gpu.shuffle xor combines the 32 partial results, and lane 0 folds the
// total into the output. This reassociates the reduction, which is exactly
// what the combiners it accepts allow (add, mul, max, min on f32).
//
// Taken: a linalg.generic on buffers inside a block grid with one f32
// output, one reduction loop that is the contiguous (innermost) dimension of
// its first input and spans at least a warp, and a body
// `yield combiner(out, f(inputs))` where `out` is used once, unless it is a
// dot (m and n loops: one warp per output element would be wasteful).
// Others stay with gpu-distribute-to-threads.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "LinearForalls.h"
#include "RowCombiners.h"

#include "TileBounds.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUWARPROWREDUCTIONS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

constexpr int64_t kWarpSize = 32;

struct RowReduction {
  linalg::GenericOp op;
  Operation *combiner;
  APFloat identity;
  unsigned reductionDim;
};

std::optional<RowReduction> matchRowReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() == 0 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  Value out = op.getDpsInits()[0];
  if (!getElementTypeOrSelf(out.getType()).isF32())
    return std::nullopt;
  // A dot (m and n loops) would get a warp, five shuffles and a serial loop
  // per output element; its threads are better spent one per element.
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (succeeded(dims) && !dims->m.empty() && !dims->n.empty())
      return std::nullopt;
  }
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  unsigned dim = reductions.front();
  // Lanes read consecutive elements only if the reduced dimension is the
  // contiguous one; a column reduction is better served one thread per
  // column.
  AffineMap first = op.getIndexingMapsArray().front();
  AffineExpr reduced = getAffineDimExpr(dim, op.getContext());
  if (first.getNumResults() == 0 || first.getResults().back() != reduced)
    return std::nullopt;
  // Nor when another input in global memory has the reduced dimension
  // elsewhere (a matrix-vector product x[k] * W[k, n] over k): its lanes
  // would read a column, one element per 32-byte sector, 16 times the bytes
  // of a bf16 weight (decode GEMV M1: LDG.E.U16 per lane and k). One
  // thread per column (gpu-distribute-to-threads) reads rows of W instead.
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
      continue;
    if (map.getNumResults() > 0 && map.getResults().back() != reduced &&
        llvm::is_contained(map.getResults(), reduced))
      return std::nullopt;
  }
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  BlockArgument outArg = op.getBlock()->getArguments().back();
  if (!combiner || combiner->getBlock() != op.getBlock() ||
      combiner->getNumOperands() != 2 || !outArg.hasOneUse() ||
      outArg.getUses().begin()->getOwner() != combiner)
    return std::nullopt;
  std::optional<APFloat> identity = blockbuster::combinerIdentity(combiner);
  if (!identity)
    return std::nullopt;
  // The reduced extent must fill a warp, else lanes would idle.
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      if (expr != getAffineDimExpr(dim, op.getContext()))
        continue;
      std::optional<int64_t> bound =
          blockbuster::constantUpperBound(operand.get(), pos);
      if (!bound || *bound < kWarpSize)
        return std::nullopt;
      return RowReduction{op, combiner, *identity, dim};
    }
  }
  return std::nullopt;
}

/// The extent of loop `dim` of `op`, from the first operand indexing it.
Value loopExtent(OpBuilder &b, linalg::GenericOp op, unsigned dim) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [pos, expr] : llvm::enumerate(map.getResults()))
      if (expr == getAffineDimExpr(dim, op.getContext()))
        return b.createOrFold<memref::DimOp>(op.getLoc(), operand.get(),
                                             static_cast<int64_t>(pos));
  }
  llvm_unreachable("every loop of a linalg op indexes some operand");
}

SmallVector<Value> operandIndices(AffineMap map, ArrayRef<Value> dimValues) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(dimValues[cast<AffineDimExpr>(expr).getPosition()]);
  return indices;
}

void lowerToWarps(RewriterBase &rewriter, const RowReduction &r,
                  int64_t threads) {
  linalg::GenericOp op = r.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  unsigned numLoops = op.getNumLoops();
  SmallVector<Value> extents;
  for (unsigned dim = 0; dim < numLoops; ++dim)
    extents.push_back(loopExtent(rewriter, op, dim));
  // Rows: the parallel loops, linearised.
  Value rows = index(1);
  for (unsigned dim = 0; dim < numLoops; ++dim)
    if (dim != r.reductionDim)
      rows = rewriter.createOrFold<arith::MulIOp>(loc, rows, extents[dim]);

  int64_t warps = threads / kWarpSize;
  auto forall = blockbuster::createWarpForall(rewriter, loc, warps);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall.getBody()->getTerminator());
  Value lane = gpu::LaneIdOp::create(rewriter, loc, /*upper_bound=*/nullptr);
  auto rowLoop = scf::ForOp::create(rewriter, loc, forall.getInductionVar(0),
                                    rows, index(warps));
  rewriter.setInsertionPointToStart(rowLoop.getBody());
  // Delinearise the row, the last parallel loop fastest; what remains for
  // the first one is already below its extent.
  SmallVector<Value> dims(numLoops);
  SmallVector<unsigned> parallel;
  for (unsigned dim = 0; dim < numLoops; ++dim)
    if (dim != r.reductionDim)
      parallel.push_back(dim);
  Value rest = rowLoop.getInductionVar();
  for (size_t i = parallel.size(); i > 1; --i) {
    unsigned dim = parallel[i - 1];
    dims[dim] = rewriter.createOrFold<arith::RemUIOp>(loc, rest, extents[dim]);
    rest = rewriter.createOrFold<arith::DivUIOp>(loc, rest, extents[dim]);
  }
  if (!parallel.empty())
    dims[parallel.front()] = rest;

  // Each lane folds elements lane, lane + 32, ... by the op's own body.
  Value identity = arith::ConstantOp::create(
      rewriter, loc, rewriter.getF32FloatAttr(r.identity.convertToFloat()));
  auto fold = scf::ForOp::create(rewriter, loc, lane, extents[r.reductionDim],
                                 index(kWarpSize), ValueRange{identity});
  {
    OpBuilder::InsertionGuard foldGuard(rewriter);
    rewriter.setInsertionPointToStart(fold.getBody());
    dims[r.reductionDim] = fold.getInductionVar();
    IRMapping mapping;
    Block *body = op.getBlock();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (auto [i, input] : llvm::enumerate(op.getDpsInputs()))
      mapping.map(body->getArgument(i),
                  memref::LoadOp::create(rewriter, loc, input,
                                         operandIndices(maps[i], dims)));
    mapping.map(body->getArguments().back(), fold.getRegionIterArgs()[0]);
    for (Operation &bodyOp : body->without_terminator()) {
      if (auto loopIndex = dyn_cast<linalg::IndexOp>(bodyOp))
        mapping.map(loopIndex.getResult(), dims[loopIndex.getDim()]);
      else
        rewriter.clone(bodyOp, mapping);
    }
    scf::YieldOp::create(rewriter, loc,
                         mapping.lookup(body->getTerminator()->getOperand(0)));
  }

  // Butterfly: after offsets 16, 8, 4, 2, 1 every lane holds the total.
  Value total = blockbuster::combineAcrossWarp(rewriter, loc, r.combiner,
                                               fold.getResult(0));
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      lane, index(0));
  auto store = scf::IfOp::create(rewriter, loc, first);
  rewriter.setInsertionPointToStart(store.thenBlock());
  Value out = op.getDpsInits()[0];
  SmallVector<Value> outIndices =
      operandIndices(op.getIndexingMapsArray().back(), dims);
  Value old = memref::LoadOp::create(rewriter, loc, out, outIndices);
  memref::StoreOp::create(
      rewriter, loc,
      blockbuster::combine(rewriter, loc, r.combiner, old, total), out,
      outIndices);
  rewriter.eraseOp(op);
}

struct GPUWarpRowReductions
    : blockbuster::impl::GPUWarpRowReductionsBase<GPUWarpRowReductions> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < kWarpSize || threads % kWarpSize != 0)
      return;
    SmallVector<RowReduction> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      auto grid = op->getParentOfType<scf::ForallOp>();
      if (!grid || !blockbuster::isBlockGrid(grid))
        return;
      if (std::optional<RowReduction> r = matchRowReduction(op))
        reductions.push_back(*r);
    });
    IRRewriter rewriter(&getContext());
    for (const RowReduction &r : reductions)
      lowerToWarps(rewriter, r, threads);
  }
};

} // namespace
