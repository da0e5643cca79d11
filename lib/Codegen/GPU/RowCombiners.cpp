//===- RowCombiners.cpp - Combiners of row reductions on a warp -----------===//

#include "RowCombiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

std::optional<APFloat> blockbuster::combinerIdentity(Operation *op) {
  const llvm::fltSemantics &f32 = APFloat::IEEEsingle();
  if (isa<arith::AddFOp>(op))
    return APFloat::getZero(f32);
  if (isa<arith::MulFOp>(op))
    return APFloat::getOne(f32);
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return APFloat::getInf(f32, /*Negative=*/true);
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return APFloat::getInf(f32);
  return std::nullopt;
}

Value blockbuster::combine(OpBuilder &b, Location loc, Operation *combiner,
                           Value lhs, Value rhs) {
  OperationState state(loc, combiner->getName().getStringRef(), {lhs, rhs},
                       {lhs.getType()}, combiner->getAttrs());
  return b.create(state)->getResult(0);
}

Value blockbuster::combineAcrossWarp(OpBuilder &b, Location loc,
                                     Operation *combiner, Value value) {
  constexpr int64_t kWarpSize = 32;
  Value width = arith::ConstantIntOp::create(b, loc, kWarpSize, 32);
  for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2) {
    Value offsetValue = arith::ConstantIntOp::create(b, loc, offset, 32);
    auto shuffle = gpu::ShuffleOp::create(b, loc, value, offsetValue, width,
                                          gpu::ShuffleMode::XOR);
    value = combine(b, loc, combiner, value, shuffle.getResult(0));
  }
  return value;
}
