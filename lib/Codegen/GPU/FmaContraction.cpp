//===- FmaContraction.cpp - Elementwise bodies as fused multiply-adds -----===//
//
// See FmaContraction.h.
//
//===----------------------------------------------------------------------===//

#include "FmaContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace {

/// The loops of `op` that each value of its body varies over: a block
/// argument those of its indexing map, `linalg.index` its dimension, an op
/// the union of its operands'; values from above none.
class LoopDependence {
public:
  explicit LoopDependence(linalg::GenericOp op) : loops(op.getNumLoops()) {
    Block *body = op.getBody();
    for (OpOperand &operand : op->getOpOperands()) {
      llvm::SmallBitVector dims(loops);
      for (AffineExpr expr :
           op.getMatchingIndexingMap(&operand).getResults())
        for (unsigned d = 0; d < loops; ++d)
          if (expr.isFunctionOfDim(d))
            dims.set(d);
      of[body->getArgument(operand.getOperandNumber())] = dims;
    }
    for (Operation &inner : body->without_terminator())
      record(&inner);
  }

  /// Records `inner`'s results (an op of the body, also a new one).
  void record(Operation *inner) {
    llvm::SmallBitVector dims(loops);
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      dims.set(index.getDim());
    for (Value operand : inner->getOperands())
      dims |= get(operand);
    for (Value result : inner->getResults())
      of[result] = dims;
  }

  llvm::SmallBitVector get(Value value) const {
    auto it = of.find(value);
    return it == of.end() ? llvm::SmallBitVector(loops) : it->second;
  }

  /// True if `a` and `b` together vary over fewer loops than `op` has.
  bool outer(Value a, Value b) const {
    return !(get(a) | get(b)).all();
  }

private:
  unsigned loops;
  DenseMap<Value, llvm::SmallBitVector> of;
};

bool isF32(Value value) { return value.getType().isF32(); }

/// `(x - m) * r` as `fma(x, r, -(m * r))` where m and r are outer values.
bool distributeShift(RewriterBase &rewriter, arith::MulFOp mul,
                     LoopDependence &loops) {
  for (unsigned i = 0; i < 2; ++i) {
    auto sub = mul->getOperand(i).getDefiningOp<arith::SubFOp>();
    Value r = mul->getOperand(1 - i);
    if (!sub || !sub->hasOneUse() || !isF32(mul.getResult()) ||
        !loops.outer(sub.getRhs(), r) || loops.outer(sub.getLhs(), r))
      continue;
    rewriter.setInsertionPoint(mul);
    Location loc = mul.getLoc();
    auto shift = arith::MulFOp::create(rewriter, loc, sub.getRhs(), r);
    auto negated = arith::NegFOp::create(rewriter, loc, shift);
    auto fma =
        math::FmaOp::create(rewriter, loc, sub.getLhs(), r, negated);
    for (Operation *created : {shift.getOperation(), negated.getOperation(),
                               fma.getOperation()})
      loops.record(created);
    rewriter.replaceOp(mul, fma);
    rewriter.eraseOp(sub);
    return true;
  }
  return false;
}

/// `a * b + c` as `fma(a, b, c)`, the product used only by the add.
bool contractAdd(RewriterBase &rewriter, arith::AddFOp add,
                 LoopDependence &loops) {
  if (!isF32(add.getResult()))
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    auto mul = add->getOperand(i).getDefiningOp<arith::MulFOp>();
    if (!mul || !mul->hasOneUse())
      continue;
    rewriter.setInsertionPoint(add);
    auto fma = math::FmaOp::create(rewriter, add.getLoc(), mul.getLhs(),
                                   mul.getRhs(), add->getOperand(1 - i));
    loops.record(fma);
    rewriter.replaceOp(add, fma);
    rewriter.eraseOp(mul);
    return true;
  }
  return false;
}

} // namespace

LogicalResult blockbuster::contractToFma(RewriterBase &rewriter,
                                         linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0)
    return rewriter.notifyMatchFailure(op, "not elementwise");
  OpBuilder::InsertionGuard guard(rewriter);
  LoopDependence loops(op);
  bool changed = false;
  // Shifts first: their products are the adds' multiplicands
  // (`((x - m) * r) * g + b` keeps `* g` for the add).
  Block *body = op.getBody();
  for (auto mul : llvm::make_early_inc_range(body->getOps<arith::MulFOp>()))
    changed |= distributeShift(rewriter, mul, loops);
  for (auto add : llvm::make_early_inc_range(body->getOps<arith::AddFOp>()))
    changed |= contractAdd(rewriter, add, loops);
  if (!changed)
    return rewriter.notifyMatchFailure(op, "no shift or add of a product");
  return success();
}
