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

bool isReshape(Operation *op) {
  return isa_and_present<memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
}

/// The allocation `copy` copies a reshape of into an argument of `func`,
/// with the chain of reshapes from it to the copy's source in `reshapes`
/// (first the one applied to the allocation), or null when the copy is not
/// of that form. A chain comes from views of views: `[32, 64] -> [1, 32, 64]
/// -> [1, 2048]` when a result is the flattened head split of a kernel's
/// output.
memref::AllocOp getReshapedAllocation(func::FuncOp func, memref::CopyOp copy,
                                      SmallVectorImpl<Operation *> &reshapes) {
  Block &entry = func.getBody().front();
  auto target = dyn_cast<BlockArgument>(copy.getTarget());
  if (copy->getBlock() != &entry || !target || target.getOwner() != &entry ||
      !hasIdentityLayout(target))
    return nullptr;
  reshapes.clear();
  Operation *reshape = copy.getSource().getDefiningOp();
  while (isReshape(reshape)) {
    reshapes.push_back(reshape);
    Operation *source = reshape->getOperand(0).getDefiningOp();
    if (!isReshape(source))
      break;
    // An inner reshape read by anything else keeps the allocation's shape.
    if (!source->hasOneUse())
      return nullptr;
    reshape = source;
  }
  if (reshapes.empty())
    return nullptr;
  std::reverse(reshapes.begin(), reshapes.end());
  Operation *first = reshapes.front();
  auto alloc = first->getOperand(0).getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getParentOp() != func ||
      !hasIdentityLayout(alloc.getResult()))
    return nullptr;
  // After the copy nothing may use the allocation but its deallocation:
  // the copy reads its final contents.
  for (Operation *user : alloc->getUsers()) {
    Operation *inEntry = entry.findAncestorOpInBlock(*user);
    if (user != first && !isa<memref::DeallocOp>(user) &&
        (!inEntry || copy->isBeforeInBlock(inEntry)))
      return nullptr;
  }
  return alloc;
}

/// `value` seen with the shape `reshape` took its source from: the inverse
/// of `reshape`.
Value createInverseReshape(RewriterBase &rewriter, Operation *reshape,
                           Value value) {
  Location loc = reshape->getLoc();
  auto sourceType = cast<MemRefType>(reshape->getOperand(0).getType());
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape))
    return memref::CollapseShapeOp::create(rewriter, loc, sourceType, value,
                                           expand.getReassociationIndices());
  auto collapse = cast<memref::CollapseShapeOp>(reshape);
  return memref::ExpandShapeOp::create(rewriter, loc, sourceType, value,
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
    SmallVector<Operation *> reshapes;
    for (memref::CopyOp copy : copies) {
      memref::AllocOp alloc = getReshapedAllocation(func, copy, reshapes);
      if (!alloc)
        continue;
      // The out-parameter taken back through the chain, last reshape first.
      rewriter.setInsertionPoint(alloc);
      Value view = copy.getTarget();
      for (Operation *reshape : llvm::reverse(reshapes))
        view = createInverseReshape(rewriter, reshape, view);
      rewriter.eraseOp(copy);
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          rewriter.eraseOp(user);
      rewriter.replaceOp(alloc, view);
      for (Operation *reshape : llvm::reverse(reshapes))
        if (reshape->use_empty())
          rewriter.eraseOp(reshape);
    }
  }
};

} // namespace
