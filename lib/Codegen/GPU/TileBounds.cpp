//===- TileBounds.cpp - Constant bounds of tile extents -------------------===//

#include "TileBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

std::optional<int64_t> blockbuster::constantUpperBound(Value value) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return c;
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<arith::MinSIOp, arith::MinUIOp>(def)) {
    std::optional<int64_t> lhs = constantUpperBound(def->getOperand(0));
    std::optional<int64_t> rhs = constantUpperBound(def->getOperand(1));
    if (lhs && rhs)
      return std::min(*lhs, *rhs);
    return lhs ? lhs : rhs;
  }
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, value, /*stopCondition=*/nullptr,
      /*closedUB=*/true);
  if (succeeded(bound))
    return *bound;
  return std::nullopt;
}

std::optional<int64_t> blockbuster::constantUpperBound(Value memref,
                                                       unsigned dim) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(dim))
    return type.getDimSize(dim);
  Operation *def = memref.getDefiningOp();
  if (auto alloc = dyn_cast_or_null<memref::AllocOp>(def))
    return constantUpperBound(
        alloc.getDynamicSizes()[type.getDynamicDimIndex(dim)]);
  if (auto subview = dyn_cast_or_null<memref::SubViewOp>(def)) {
    // Rank-reducing views drop unit dimensions; map `dim` back.
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    unsigned sourceDim = 0;
    for (unsigned kept = 0;; ++sourceDim)
      if (!dropped.test(sourceDim) && kept++ == dim)
        break;
    OpFoldResult size = subview.getMixedSizes()[sourceDim];
    if (auto value = dyn_cast<Value>(size))
      return constantUpperBound(value);
    return getConstantIntValue(size);
  }
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(memref, dim),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (succeeded(bound))
    return *bound;
  return std::nullopt;
}
