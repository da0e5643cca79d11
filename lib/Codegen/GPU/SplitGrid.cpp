//===- SplitGrid.cpp - A block grid's third dimension of splits -----------===//

#include "SplitGrid.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

scf::ForallOp blockbuster::addSplitDimension(RewriterBase &rewriter,
                                             scf::ForallOp grid,
                                             int64_t splits) {
  SmallVector<OpFoldResult> ubs = grid.getMixedUpperBound();
  ubs.push_back(rewriter.getIndexAttr(splits));
  SmallVector<Attribute> mapping(grid.getMapping()->getValue());
  mapping.push_back(gpu::GPUBlockMappingAttr::get(rewriter.getContext(),
                                                  gpu::MappingId::DimZ));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(grid);
  auto split = scf::ForallOp::create(rewriter, grid.getLoc(), ubs,
                                     ValueRange{},
                                     rewriter.getArrayAttr(mapping));
  for (NamedAttribute attr : grid->getDiscardableAttrs())
    split->setAttr(attr.getName(), attr.getValue());
  rewriter.eraseOp(split.getBody()->getTerminator());
  SmallVector<Value> ivs = split.getInductionVars();
  ivs.pop_back();
  rewriter.mergeBlocks(grid.getBody(), split.getBody(), ivs);
  rewriter.eraseOp(grid);
  return split;
}

void blockbuster::createCountFence(OpBuilder &b, Location loc) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "device");
}

Value blockbuster::countBlockIn(OpBuilder &b, Location loc, Value counters,
                                Value block, int64_t splits) {
  Type i32 = b.getI32Type();
  createCountFence(b, loc);
  Value before = memref::AtomicRMWOp::create(
      b, loc, arith::AtomicRMWKind::addi,
      arith::ConstantIntOp::create(b, loc, i32, 1), counters,
      ValueRange{block});
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, before,
      arith::ConstantIntOp::create(b, loc, i32, splits - 1));
}

Value blockbuster::unsplitBlockIndex(OpBuilder &b, Location loc,
                                     scf::ForallOp grid) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value block = index(0);
  SmallVector<Value> ivs = grid.getInductionVars();
  for (auto [iv, extent] : llvm::zip(ArrayRef(ivs).drop_back(),
                                     grid.getStaticUpperBound())) {
    block = arith::MulIOp::create(b, loc, block, index(extent));
    block = arith::AddIOp::create(b, loc, block, iv);
  }
  return block;
}
