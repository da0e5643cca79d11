//===- Combiners.cpp - Building the ops of a combiner kind ----------------===//

#include "Blockbuster/Dialect/Block/IR/Combiners.h"

using namespace mlir;
using namespace blockbuster::block;

Value blockbuster::block::createCombine(OpBuilder &builder, Location loc,
                                        CombinerKind kind, Value lhs,
                                        Value rhs) {
  switch (kind) {
  case CombinerKind::Add: return AddOp::create(builder, loc, lhs, rhs);
  case CombinerKind::Mul: return MulOp::create(builder, loc, lhs, rhs);
  case CombinerKind::Max: return MaxOp::create(builder, loc, lhs, rhs);
  case CombinerKind::Min: return MinOp::create(builder, loc, lhs, rhs);
  }
  llvm_unreachable("unknown combiner");
}

TypedAttr blockbuster::block::getCombinerIdentity(CombinerKind kind,
                                                  Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case CombinerKind::Add:
      return FloatAttr::get(type, APFloat::getZero(semantics));
    case CombinerKind::Mul:
      return FloatAttr::get(type, APFloat::getOne(semantics));
    case CombinerKind::Max:
      return FloatAttr::get(type,
                            APFloat::getInf(semantics, /*Negative=*/true));
    case CombinerKind::Min:
      return FloatAttr::get(type,
                            APFloat::getInf(semantics, /*Negative=*/false));
    }
  }
  unsigned width = type.isIndex() ? IndexType::kInternalStorageBitWidth
                                  : type.getIntOrFloatBitWidth();
  APInt value;
  switch (kind) {
  case CombinerKind::Add: value = APInt::getZero(width); break;
  case CombinerKind::Mul: value = APInt(width, 1); break;
  case CombinerKind::Max:
    value = width == 1 ? APInt::getZero(1) : APInt::getSignedMinValue(width);
    break;
  case CombinerKind::Min:
    value = width == 1 ? APInt::getAllOnes(1) : APInt::getSignedMaxValue(width);
    break;
  }
  return IntegerAttr::get(type, value);
}
