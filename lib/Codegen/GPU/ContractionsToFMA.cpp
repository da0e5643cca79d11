//===- ContractionsToFMA.cpp - Register-tiled dots on the FMA units -------===//
//
// The lowering of block.dot for tiles the tensor cores do not take (f32
// operands; gpu-contractions-to-mma runs first). Tiled over threads like
// any other op (gpu-distribute-to-threads), a dot's innermost loop reads
// and writes its output element in shared memory at every k, three memory
// operations per multiply-add, because LLVM cannot keep the element in a
// register across the loads of A and B from the same shared buffer.
// Here each thread owns a TM x TN register tile of C instead: rows
// r + R * i, columns c + C * j of the threads' R x C arrangement (8 threads
// along n, so a warp reads 8 consecutive elements of B's row), loads TM
// elements of A's column and TN of B's row per k and does TM * TN
// multiply-adds, with the op's own body. Rows and columns outside a
// partial edge tile are computed on clamped indices and not stored; their
// accumulators start from zero, not from C at the clamped index: that
// element belongs to another thread, which writes it with no barrier
// between (a race compute-sanitizer's racecheck reports, issue 18).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "LinearForalls.h"

#include "TileContractions.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUCONTRACTIONSTOFMA
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

namespace {

// Threads along n: a warp covers 4 rows x 8 columns.
constexpr int64_t kThreadsAlongN = 8;
// At most this many f32 accumulators per thread (registers).
constexpr int64_t kMaxAccumulators = 64;

LogicalResult lowerToFMA(RewriterBase &rewriter, const TileContraction &c,
                         int64_t threads) {
  // Batched dots (a dot per head) stay with gpu-distribute-to-threads:
  // with the batch folded into the rows, attention B8 H16 S1024 D64 (8 x 8
  // x 8 tiles) ran 18.3 ms on the H100 against 14.4 ms there.
  if (!c.batch.empty())
    return failure();
  linalg::GenericOp op = c.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  DenseMap<unsigned, LoopExtent> extents;
  for (unsigned dim : {c.m, c.n, c.k}) {
    std::optional<LoopExtent> extent = loopExtent(rewriter, op, dim);
    if (!extent)
      return failure();
    extents[dim] = *extent;
  }
  int64_t threadsAlongM = threads / kThreadsAlongN;
  int64_t tileM = llvm::divideCeilSigned(extents[c.m].bound, threadsAlongM);
  int64_t tileN = llvm::divideCeilSigned(extents[c.n].bound, kThreadsAlongN);
  if (tileM * tileN > kMaxAccumulators)
    return failure();
  std::optional<AccumulationFold> fold = findAccumulationFold(op);

  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value rowCount = extents[c.m].value; // rows of a partial edge tile
  auto forall = createThreadForall(rewriter, loc, threads);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall.getBody()->getTerminator());
  Value thread = forall.getInductionVar(0);
  Value row0 = arith::DivUIOp::create(rewriter, loc, thread,
                                      index(kThreadsAlongN));
  Value col0 = arith::RemUIOp::create(rewriter, loc, thread,
                                      index(kThreadsAlongN));

  // This thread's rows and columns, and the indices its loads of A and B
  // use: clamped to the tile (a partial edge tile computes garbage there,
  // never stored).
  Value lastRow = arith::SubIOp::create(rewriter, loc, rowCount, index(1));
  Value lastCol = arith::SubIOp::create(rewriter, loc, extents[c.n].value,
                                        index(1));
  SmallVector<Value> rows, cols, loadRows, loadCols;
  for (int64_t i = 0; i < tileM; ++i) {
    rows.push_back(arith::AddIOp::create(rewriter, loc, row0,
                                         index(i * threadsAlongM)));
    loadRows.push_back(
        arith::MinUIOp::create(rewriter, loc, rows.back(), lastRow));
  }
  for (int64_t j = 0; j < tileN; ++j) {
    cols.push_back(arith::AddIOp::create(rewriter, loc, col0,
                                         index(j * kThreadsAlongN)));
    loadCols.push_back(
        arith::MinUIOp::create(rewriter, loc, cols.back(), lastCol));
  }
  Value out = fold ? fold->acc : op.getDpsInits()[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // Indices into operand `operand` at loop indices (dim0, v0), (dim1, v1).
  auto indicesAt = [&](unsigned operand, unsigned dim0, Value v0,
                       unsigned dim1, Value v1) {
    DenseMap<unsigned, Value> at;
    at[dim0] = v0;
    at[dim1] = v1;
    return operandIndices(maps[operand], at);
  };

  // Whether this thread's element (i, j) is inside the tile: only those
  // are read from and written to C.
  SmallVector<Value> inside;
  for (int64_t i = 0; i < tileM; ++i)
    for (int64_t j = 0; j < tileN; ++j)
      inside.push_back(arith::AndIOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                rows[i], rowCount),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                cols[j], extents[c.n].value)));

  // Accumulators start from C (the op's own order of additions) or, when
  // the result is added into a reduce state or the element is outside the
  // tile, from zero.
  SmallVector<Value> init;
  Type accType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getZeroAttr(accType));
  for (int64_t i = 0; i < tileM; ++i) {
    for (int64_t j = 0; j < tileN; ++j) {
      if (fold) {
        init.push_back(zero);
        continue;
      }
      auto load = scf::IfOp::create(rewriter, loc, TypeRange{accType},
                                    inside[i * tileN + j],
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard loadGuard(rewriter);
      rewriter.setInsertionPointToStart(load.thenBlock());
      scf::YieldOp::create(
          rewriter, loc,
          memref::LoadOp::create(rewriter, loc, op.getDpsInits()[0],
                                 indicesAt(2, c.m, rows[i], c.n, cols[j]))
              .getResult());
      rewriter.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(rewriter, loc, zero);
      init.push_back(load.getResult(0));
    }
  }
  auto kLoop = scf::ForOp::create(rewriter, loc, index(0), extents[c.k].value,
                                  index(1), init);
  {
    OpBuilder::InsertionGuard loopGuard(rewriter);
    rewriter.setInsertionPointToStart(kLoop.getBody());
    Value k = kLoop.getInductionVar();
    SmallVector<Value> aValues;
    for (int64_t i = 0; i < tileM; ++i)
      aValues.push_back(memref::LoadOp::create(
          rewriter, loc, op.getDpsInputs()[0],
          indicesAt(0, c.m, loadRows[i], c.k, k)));
    SmallVector<Value> bValues;
    for (Value col : loadCols)
      bValues.push_back(memref::LoadOp::create(
          rewriter, loc, op.getDpsInputs()[1], indicesAt(1, c.k, k, c.n, col)));
    Block *body = op.getBlock();
    SmallVector<Value> next;
    for (int64_t i = 0; i < tileM; ++i) {
      for (int64_t j = 0; j < tileN; ++j) {
        IRMapping mapping;
        mapping.map(body->getArgument(0), aValues[i]);
        mapping.map(body->getArgument(1), bValues[j]);
        mapping.map(body->getArgument(2),
                    kLoop.getRegionIterArgs()[i * tileN + j]);
        for (Operation &bodyOp : body->without_terminator())
          rewriter.clone(bodyOp, mapping);
        next.push_back(mapping.lookup(body->getTerminator()->getOperand(0)));
      }
    }
    scf::YieldOp::create(rewriter, loc, next);
  }

  for (int64_t i = 0; i < tileM; ++i) {
    for (int64_t j = 0; j < tileN; ++j) {
      auto store = scf::IfOp::create(rewriter, loc, inside[i * tileN + j]);
      OpBuilder::InsertionGuard storeGuard(rewriter);
      rewriter.setInsertionPointToStart(store.thenBlock());
      SmallVector<Value> indices = indicesAt(2, c.m, rows[i], c.n, cols[j]);
      Value result = kLoop.getResult(i * tileN + j);
      if (fold)
        result = arith::AddFOp::create(
            rewriter, loc, memref::LoadOp::create(rewriter, loc, out, indices),
            result);
      memref::StoreOp::create(rewriter, loc, result, out, indices);
    }
  }
  rewriter.setInsertionPointAfter(forall);
  eraseLoweredContraction(rewriter, op, fold);
  return success();
}

struct GPUContractionsToFMA
    : blockbuster::impl::GPUContractionsToFMABase<GPUContractionsToFMA> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < kThreadsAlongN || threads % kThreadsAlongN != 0)
      return;
    SmallVector<TileContraction> contractions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<TileContraction> c = matchTileContraction(op))
        contractions.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    for (const TileContraction &c : contractions)
      (void)lowerToFMA(rewriter, c, threads);
  }
};

} // namespace
