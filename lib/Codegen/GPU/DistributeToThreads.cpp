//===- DistributeToThreads.cpp - Tile ops of a block onto its threads -----===//
//
// After bufferization a block body is a sequence of Linalg ops on tiles in
// shared memory and on views of global memory. Each op becomes an scf.forall
// over the block's threads; mapping it to thread ids (gpu-map-grid-to-launch)
// puts a barrier after each, so every op sees its producers' results.
// Reductions stay whole inside one thread: a thread owns whole rows.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "LinearForalls.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUDISTRIBUTETOTHREADS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

gpu::GPUThreadMappingAttr linearThread(MLIRContext *ctx, unsigned dim) {
  return gpu::GPUThreadMappingAttr::get(
      ctx, static_cast<gpu::MappingId>(
               static_cast<unsigned>(gpu::MappingId::LinearDim0) + dim));
}

bool isInsideThreadForall(Operation *op) {
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>())
    if (!blockbuster::isBlockGrid(forall))
      return true;
  return false;
}

scf::ForallOp enclosingBlockGrid(Operation *op) {
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>())
    if (blockbuster::isBlockGrid(forall))
      return forall;
  return nullptr;
}

bool isInsideBlockGrid(Operation *op) { return bool(enclosingBlockGrid(op)); }

struct GPUDistributeToThreads
    : blockbuster::impl::GPUDistributeToThreadsBase<GPUDistributeToThreads> {
  using Base::Base;

  /// Runs `op` on thread 0 only: a one-iteration thread forall.
  void runOnOneThread(RewriterBase &rewriter, Operation *op) {
    rewriter.setInsertionPoint(op);
    auto forall = blockbuster::createThreadForall(rewriter, op->getLoc(), 1);
    rewriter.moveOpBefore(op, forall.getBody()->getTerminator());
  }

  /// The threads of the block that runs `op`: its grid's own choice (a
  /// schedule that sets `blockbuster.block_threads`), else the option.
  int64_t blockThreads(Operation *op) {
    scf::ForallOp grid = enclosingBlockGrid(op);
    auto chosen =
        grid ? grid->getAttrOfType<IntegerAttr>(
                   blockbuster::kBlockThreadsAttrName)
             : IntegerAttr();
    return chosen ? chosen.getInt() : threads.getValue();
  }

  LogicalResult distribute(RewriterBase &rewriter, linalg::LinalgOp op) {
    int64_t threads = blockThreads(op);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<unsigned> parallel;
    for (auto [i, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::parallel)
        parallel.push_back(i);
    if (parallel.empty()) {
      runOnOneThread(rewriter, op);
      return success();
    }
    // The innermost one or two parallel loops are split over the threads:
    // 1-D all threads, 2-D (threads/32) x 32 so that a warp spans columns.
    SmallVector<OpFoldResult> numThreads(iterators.size(),
                                         rewriter.getIndexAttr(0));
    SmallVector<Attribute> mapping;
    MLIRContext *ctx = rewriter.getContext();
    if (parallel.size() == 1 || threads < 64) {
      numThreads[parallel.back()] = rewriter.getIndexAttr(threads);
      mapping.push_back(linearThread(ctx, 0));
    } else {
      unsigned rows = parallel[parallel.size() - 2], cols = parallel.back();
      numThreads[rows] = rewriter.getIndexAttr(threads / 32);
      numThreads[cols] = rewriter.getIndexAttr(32);
      mapping.push_back(linearThread(ctx, 1));
      mapping.push_back(linearThread(ctx, 0));
    }
    scf::SCFTilingOptions options;
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    options.setNumThreads(numThreads);
    options.setMapping(mapping);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return op->emitError("cannot distribute this op over the threads of a "
                           "block");
    if (op->getNumResults() != 0)
      return op->emitError("expected an op on buffers (run bufferization "
                           "first)");
    rewriter.eraseOp(op);
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // memref.copy inside a kernel would become a call into a host runtime.
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (isInsideBlockGrid(copy) && !isInsideThreadForall(copy))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }

    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isInsideBlockGrid(op) && !isInsideThreadForall(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      if (failed(distribute(rewriter, op)))
        return signalPassFailure();
  }
};

} // namespace
