//===- CarryLoopStateInPlace.cpp - Loop state in loop-invariant buffers ---===//
//
// One-shot bufferization (with allow-return-allocs-from-loops) lets a reduce
// loop yield a buffer it allocated in its body. Shared memory is laid out
// statically per kernel (gpu-pack-workgroup-memory), so an allocation must not
// outlive its iteration. Each memref state of a loop inside a block grid
// therefore gets one buffer, allocated before the loop, that holds the state
// between iterations: the initial value is copied in before the loop and each
// iteration's new state is copied in at the end of the body.
//
// The initial buffer itself is not reused for this because bufferization may
// share it with other readers (CSE merges equal fills, e.g. the -inf that
// starts both a running max and a tile max).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUCARRYLOOPSTATEINPLACE
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

/// Allocates a buffer of `like`'s shape (identity layout, same memory space).
Value allocateLike(OpBuilder &b, Location loc, Value like) {
  auto type = cast<MemRefType>(like.getType());
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, like, d));
  auto identity = MemRefType::get(type.getShape(), type.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  type.getMemorySpace());
  return memref::AllocOp::create(b, loc, identity, dynamicSizes);
}

struct GPUCarryLoopStateInPlace
    : blockbuster::impl::GPUCarryLoopStateInPlaceBase<
          GPUCarryLoopStateInPlace> {
  LogicalResult carry(scf::ForOp loop) {
    IRRewriter rewriter(loop.getContext());
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
      BlockArgument state = loop.getRegionIterArg(i);
      auto type = dyn_cast<MemRefType>(state.getType());
      if (!type)
        continue;
      if (!type.getLayout().isIdentity())
        return loop.emitError()
               << "cannot carry loop state #" << i << " of type " << type
               << " in place: only identity layouts are supported";
      Value init = loop.getInitArgs()[i];
      Value next = yield.getOperand(i);
      Location loc = loop.getLoc();

      rewriter.setInsertionPoint(loop);
      Value buffer = allocateLike(rewriter, loc, init);
      linalg::CopyOp::create(rewriter, loc, init, buffer);
      if (next != state) {
        rewriter.setInsertionPoint(yield);
        linalg::CopyOp::create(rewriter, loc, next, buffer);
      }
      rewriter.replaceAllUsesWith(state, buffer);
      rewriter.replaceAllUsesWith(loop.getResult(i), buffer);
      // The iter_arg now carries nothing; canonicalization drops it.
      rewriter.modifyOpInPlace(yield, [&] { yield.setOperand(i, state); });
    }
    return success();
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      auto grid = loop->getParentOfType<scf::ForallOp>();
      while (grid && !blockbuster::isBlockGrid(grid))
        grid = grid->getParentOfType<scf::ForallOp>();
      if (grid)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (failed(carry(loop)))
        return signalPassFailure();
  }
};

} // namespace
