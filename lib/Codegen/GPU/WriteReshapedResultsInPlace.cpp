//===- WriteReshapedResultsInPlace.cpp - No host copy for reshaped results ===//
//
// Normalisation (convert-linalg-to-block) drops unit dimensions and moves
// reshapes to the program's boundary, so a `[1, S, D]` result is often the
// reshape of an `[S, D]` array. After bufferization that reshape ends in a
// host copy into the out-parameter, which the GPU runtime cannot execute;
// here the kernels are made to write the out-parameter directly.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUWRITERESHAPEDRESULTSINPLACE
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

bool hasIdentityLayout(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getLayout().isIdentity();
}

/// The allocation `copy` copies a reshape of into an argument of `func`, or
/// null when the copy is not of that form.
memref::AllocOp getReshapedAllocation(func::FuncOp func, memref::CopyOp copy) {
  Block &entry = func.getBody().front();
  auto target = dyn_cast<BlockArgument>(copy.getTarget());
  if (copy->getBlock() != &entry || !target || target.getOwner() != &entry ||
      !hasIdentityLayout(target))
    return nullptr;
  Operation *reshape = copy.getSource().getDefiningOp();
  if (!isa_and_present<memref::ExpandShapeOp, memref::CollapseShapeOp>(
          reshape))
    return nullptr;
  auto alloc = reshape->getOperand(0).getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getParentOp() != func ||
      !hasIdentityLayout(alloc.getResult()))
    return nullptr;
  // After the copy nothing may use the allocation but its deallocation:
  // the copy reads its final contents.
  for (Operation *user : alloc->getUsers()) {
    Operation *inEntry = entry.findAncestorOpInBlock(*user);
    if (user != reshape && !isa<memref::DeallocOp>(user) &&
        (!inEntry || copy->isBeforeInBlock(inEntry)))
      return nullptr;
  }
  return alloc;
}

/// The out-parameter `target` seen with the shape of `alloc`: the inverse
/// of `reshape`, which took `alloc` to `target`'s shape.
Value createInverseReshape(RewriterBase &rewriter, Operation *reshape,
                           memref::AllocOp alloc, Value target) {
  Location loc = reshape->getLoc();
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape))
    return memref::CollapseShapeOp::create(rewriter, loc, alloc.getType(),
                                           target,
                                           expand.getReassociationIndices());
  auto collapse = cast<memref::CollapseShapeOp>(reshape);
  return memref::ExpandShapeOp::create(rewriter, loc, alloc.getType(), target,
                                       collapse.getReassociationIndices());
}

struct GPUWriteReshapedResultsInPlace
    : blockbuster::impl::GPUWriteReshapedResultsInPlaceBase<
          GPUWriteReshapedResultsInPlace> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      memref::AllocOp alloc = getReshapedAllocation(func, copy);
      if (!alloc)
        continue;
      Operation *reshape = copy.getSource().getDefiningOp();
      rewriter.setInsertionPoint(alloc);
      Value view =
          createInverseReshape(rewriter, reshape, alloc, copy.getTarget());
      rewriter.eraseOp(copy);
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          rewriter.eraseOp(user);
      rewriter.replaceOp(alloc, view);
      if (reshape->use_empty())
        rewriter.eraseOp(reshape);
    }
  }
};

} // namespace
