//===- ReferencePrecision.cpp - An f32 reference for f16/bf16 code --------===//

#include "Blockbuster/Runtime/ReferencePrecision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

static bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

/// `type` with f16/bf16 (as a scalar or an element type) replaced by f32.
static Type promote(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (isNarrowFloat(type))
    return f32;
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && isNarrowFloat(tensor.getElementType()))
    return tensor.clone(f32);
  return type;
}

/// An elementwise conversion of `tensor` to `type` (extf or truncf).
static Value convertTensor(OpBuilder &builder, Location loc, Value tensor,
                           RankedTensorType type) {
  Value init = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                       type.getElementType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), builder.getContext());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{type}, ValueRange{tensor}, ValueRange{init},
      SmallVector<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value converted =
            type.getElementType().isF32()
                ? arith::ExtFOp::create(b, l, type.getElementType(), args[0])
                      .getResult()
                : arith::TruncFOp::create(b, l, type.getElementType(), args[0])
                      .getResult();
        linalg::YieldOp::create(b, l, converted);
      });
  return generic.getResult(0);
}

bool blockbuster::promoteNarrowFloatsToF32(func::FuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder builder(func.getContext());
  llvm::DenseSet<Operation *> boundary;

  // Arguments: extend on entry.
  builder.setInsertionPointToStart(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    if (isNarrowFloat(arg.getType())) {
      auto wide = arith::ExtFOp::create(builder, func.getLoc(),
                                        builder.getF32Type(), arg);
      boundary.insert(wide);
      arg.replaceAllUsesExcept(wide, wide);
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !isNarrowFloat(type.getElementType()))
      continue;
    Value wide = convertTensor(builder, func.getLoc(), arg,
                               cast<RankedTensorType>(promote(type)));
    boundary.insert(wide.getDefiningOp());
    arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
  }

  // Everything in between: f32 types, constants re-made in f32. Where the
  // program rounds to f16/bf16 (a truncf, or a Linalg op writing a narrow
  // tensor), the f32 value is rounded and extended again, so storage
  // rounding stays and only the arithmetic is wider.
  SmallVector<Operation *> constants;
  SmallVector<std::pair<Value, Type>> roundedResults;
  SmallVector<std::pair<arith::TruncFOp, Type>> truncs;
  func.walk([&](Operation *op) {
    if (op == func.getOperation() || boundary.contains(op->getParentOp()) ||
        boundary.contains(op))
      return;
    if (auto trunc = dyn_cast<arith::TruncFOp>(op))
      truncs.push_back({trunc, trunc.getType()});
    if (isa<linalg::LinalgOp>(op))
      for (OpResult result : op->getResults())
        if (isNarrowFloat(getElementTypeOrSelf(result.getType())))
          roundedResults.push_back(
              {result, getElementTypeOrSelf(result.getType())});
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(promote(arg.getType()));
    for (OpResult result : op->getResults())
      result.setType(promote(result.getType()));
    if (isa<arith::ConstantOp>(op))
      constants.push_back(op);
  });
  for (Operation *op : constants) {
    auto constant = cast<arith::ConstantOp>(op);
    Attribute value = constant.getValue();
    Attribute widened;
    if (auto f = dyn_cast<FloatAttr>(value); f && isNarrowFloat(f.getType())) {
      widened = FloatAttr::get(builder.getF32Type(), f.getValueAsDouble());
    } else if (auto dense = dyn_cast<DenseFPElementsAttr>(value);
               dense && isNarrowFloat(dense.getElementType())) {
      widened = dense.mapValues(builder.getF32Type(), [](const APFloat &v) {
        APFloat wide = v;
        bool lost;
        wide.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                     &lost);
        return wide.bitcastToAPInt();
      });
    } else {
      continue;
    }
    constant.setValueAttr(cast<TypedAttr>(widened));
  }
  // A truncf becomes a rounding: truncf then extf back to f32.
  for (auto [trunc, narrow] : truncs) {
    if (trunc.getIn().getType() != trunc.getType())
      continue;
    builder.setInsertionPoint(trunc);
    Value rounded = arith::TruncFOp::create(builder, trunc.getLoc(), narrow,
                                            trunc.getIn());
    Value wide = arith::ExtFOp::create(builder, trunc.getLoc(),
                                       builder.getF32Type(), rounded);
    trunc.getResult().replaceAllUsesWith(wide);
    trunc.erase();
  }
  // An extf between now equal types disappears.
  SmallVector<Operation *> extensions;
  func.walk([&](arith::ExtFOp op) {
    if (!boundary.count(op->getParentOp()) && !boundary.count(op) &&
        op.getIn().getType() == op.getType())
      extensions.push_back(op);
  });
  for (Operation *op : extensions) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }
  // A Linalg op that wrote a narrow tensor: its values rounded once, after
  // the op (a reduction accumulates in f32, then rounds).
  for (auto [result, narrow] : roundedResults) {
    auto wideType = cast<RankedTensorType>(result.getType());
    builder.setInsertionPointAfterValue(result);
    Value rounded = convertTensor(builder, result.getLoc(), result,
                                  wideType.clone(narrow));
    Value wide = convertTensor(builder, result.getLoc(), rounded, wideType);
    result.replaceAllUsesExcept(wide, rounded.getDefiningOp());
  }

  // Results: round on return.
  func.walk([&](func::ReturnOp ret) {
    builder.setInsertionPoint(ret);
    for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !isNarrowFloat(tensor.getElementType()))
        continue;
      Value narrow =
          convertTensor(builder, ret.getLoc(), ret.getOperand(index), tensor);
      ret.setOperand(index, narrow);
    }
  });
  return succeeded(verify(func));
}
