//===- ReferencePrecision.cpp - References computed in wider floats -------===//

#include "Blockbuster/Runtime/CPU/ReferencePrecision.h"
#include "Blockbuster/Runtime/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"

namespace blockbuster {
#define GEN_PASS_DEF_REFERENCEPRECISION
#include "Blockbuster/Runtime/CPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {
/// Which floats a reference computes in a wider type, and how.
struct Widening {
  /// The element types that are computed wider.
  bool (*isNarrow)(Type);
  /// The type they are computed in.
  FloatType wide;
  /// Whether a value the program stores in a narrow type (a truncf, a Linalg
  /// result) is still rounded to it. Yes for f16/bf16 programs: storage
  /// rounding is part of what they compute. No for the f64 oracle, which
  /// stands for the exact result.
  bool keepStorageRounding;
};
} // namespace

static bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }
static bool isF32(Type type) { return type.isF32(); }

/// `type` with a narrow float (as a scalar or an element type) replaced by
/// the wide one.
static Type promote(Type type, const Widening &widening) {
  if (widening.isNarrow(type))
    return widening.wide;
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && widening.isNarrow(tensor.getElementType()))
    return tensor.clone(widening.wide);
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
  bool widens = type.getElementType().getIntOrFloatBitWidth() >
                getElementTypeOrSelf(tensor.getType()).getIntOrFloatBitWidth();
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{type}, ValueRange{tensor}, ValueRange{init},
      SmallVector<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value converted =
            widens
                ? arith::ExtFOp::create(b, l, type.getElementType(), args[0])
                      .getResult()
                : arith::TruncFOp::create(b, l, type.getElementType(), args[0])
                      .getResult();
        linalg::YieldOp::create(b, l, converted);
      });
  return generic.getResult(0);
}

static bool widenFloats(func::FuncOp func, const Widening &widening) {
  Block &entry = func.getBody().front();
  OpBuilder builder(func.getContext());
  llvm::DenseSet<Operation *> boundary;

  // Arguments: extend on entry.
  builder.setInsertionPointToStart(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    if (widening.isNarrow(arg.getType())) {
      auto wide = arith::ExtFOp::create(builder, func.getLoc(), widening.wide,
                                        arg);
      boundary.insert(wide);
      arg.replaceAllUsesExcept(wide, wide);
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !widening.isNarrow(type.getElementType()))
      continue;
    Value wide = convertTensor(builder, func.getLoc(), arg,
                               cast<RankedTensorType>(promote(type, widening)));
    boundary.insert(wide.getDefiningOp());
    arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
  }

  // Everything in between: wide types, constants re-made wide. With
  // keepStorageRounding, where the program rounds to a narrow type (a
  // truncf, or a Linalg op writing a narrow tensor) the wide value is
  // rounded and extended again, so only the arithmetic is wider.
  SmallVector<Operation *> constants;
  SmallVector<std::pair<Value, Type>> roundedResults;
  SmallVector<std::pair<arith::TruncFOp, Type>> truncs;
  func.walk([&](Operation *op) {
    if (op == func.getOperation() || boundary.contains(op->getParentOp()) ||
        boundary.contains(op))
      return;
    if (auto trunc = dyn_cast<arith::TruncFOp>(op))
      truncs.push_back({trunc, trunc.getType()});
    if (isa<linalg::LinalgOp>(op) && widening.keepStorageRounding)
      for (OpResult result : op->getResults())
        if (widening.isNarrow(getElementTypeOrSelf(result.getType())))
          roundedResults.push_back(
              {result, getElementTypeOrSelf(result.getType())});
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(promote(arg.getType(), widening));
    for (OpResult result : op->getResults())
      result.setType(promote(result.getType(), widening));
    if (isa<arith::ConstantOp>(op))
      constants.push_back(op);
  });
  for (Operation *op : constants) {
    auto constant = cast<arith::ConstantOp>(op);
    Attribute value = constant.getValue();
    Attribute widened;
    if (auto f = dyn_cast<FloatAttr>(value);
        f && widening.isNarrow(f.getType())) {
      widened = FloatAttr::get(widening.wide, f.getValueAsDouble());
    } else if (auto dense = dyn_cast<DenseFPElementsAttr>(value);
               dense && widening.isNarrow(dense.getElementType())) {
      const llvm::fltSemantics &semantics =
          widening.wide.getFloatSemantics();
      widened = dense.mapValues(widening.wide, [&](const APFloat &v) {
        APFloat wide = v;
        bool lost;
        wide.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
        return wide.bitcastToAPInt();
      });
    } else {
      continue;
    }
    constant.setValueAttr(cast<TypedAttr>(widened));
  }
  // A truncf to a narrow type becomes a rounding (truncf, then extf back)
  // or, without storage rounding, nothing.
  for (auto [trunc, narrow] : truncs) {
    if (trunc.getIn().getType() != trunc.getType() ||
        !widening.keepStorageRounding)
      continue;
    builder.setInsertionPoint(trunc);
    Value rounded = arith::TruncFOp::create(builder, trunc.getLoc(), narrow,
                                            trunc.getIn());
    Value wide = arith::ExtFOp::create(builder, trunc.getLoc(), widening.wide,
                                       rounded);
    trunc.getResult().replaceAllUsesWith(wide);
    trunc.erase();
  }
  // An extf or truncf between now equal types disappears.
  SmallVector<Operation *> conversions;
  func.walk([&](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
        !boundary.count(op->getParentOp()) && !boundary.count(op) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      conversions.push_back(op);
  });
  for (Operation *op : conversions) {
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
      if (!tensor || !widening.isNarrow(tensor.getElementType()))
        continue;
      Value narrow =
          convertTensor(builder, ret.getLoc(), ret.getOperand(index), tensor);
      ret.setOperand(index, narrow);
    }
  });
  return succeeded(verify(func));
}

bool blockbuster::promoteNarrowFloatsToF32(func::FuncOp func) {
  return widenFloats(func, {isNarrowFloat, Float32Type::get(func.getContext()),
                            /*keepStorageRounding=*/true});
}

bool blockbuster::promoteF32ToF64(func::FuncOp func) {
  return widenFloats(func, {isF32, Float64Type::get(func.getContext()),
                            /*keepStorageRounding=*/false});
}

namespace {
struct ReferencePrecisionPass
    : public blockbuster::impl::ReferencePrecisionBase<ReferencePrecisionPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (to != "f32" && to != "f64") {
      func.emitError() << "reference-precision: to=" << to
                       << " is not one of f32, f64";
      return signalPassFailure();
    }
    bool promoted = to == "f32" ? blockbuster::promoteNarrowFloatsToF32(func)
                                : blockbuster::promoteF32ToF64(func);
    if (!promoted) {
      func.emitOpError() << "cannot be computed in " << to;
      signalPassFailure();
    }
  }
};
} // namespace
