//===- TileContractions.cpp - Dots of a block as Linalg contractions ------===//

#include "TileContractions.h"

#include "TileBounds.h"

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace blockbuster;

namespace {

/// True if `body` computes `out + ext(a) * ext(b)` (each extf optional) and
/// nothing else.
bool isMulAdd(Block &body) {
  if (body.getOperations().size() > 5)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body.getArgument(2), product;
  if (add.getLhs() == out)
    product = add.getRhs();
  else if (add.getRhs() == out)
    product = add.getLhs();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  auto unwidened = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return v;
  };
  Value lhs = unwidened(mul.getLhs()), rhs = unwidened(mul.getRhs());
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (lhs == a && rhs == b) || (lhs == b && rhs == a);
}

bool isZeroFill(Operation *op, Value buffer) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  return fill && fill.getOutputs()[0] == buffer &&
         matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

bool isElementwiseAddInto(linalg::GenericOp add, Value input) {
  if (add.getNumDpsInputs() != 1 || add.getNumDpsInits() != 1 ||
      add.getDpsInputs()[0] != input ||
      add.getNumParallelLoops() != add.getNumLoops() ||
      !llvm::all_of(add.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block *body = add.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto sum = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!sum || body->getOperations().size() != 2)
    return false;
  Value in = body->getArgument(0), out = body->getArgument(1);
  return (sum.getLhs() == in && sum.getRhs() == out) ||
         (sum.getLhs() == out && sum.getRhs() == in);
}

} // namespace

std::optional<TileContraction>
blockbuster::matchTileContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  auto grid = op->getParentOfType<scf::ForallOp>();
  if (!grid || !isBlockGrid(grid))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 ||
      !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32() ||
      !isMulAdd(*op.getBlock()))
    return std::nullopt;
  return TileContraction{
      op, SmallVector<unsigned>(dims->batch.begin(), dims->batch.end()),
      dims->m[0], dims->n[0], dims->k[0]};
}

bool blockbuster::isTileVectorMatrixProduct(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return false;
  auto grid = op->getParentOfType<scf::ForallOp>();
  if (!grid || !isBlockGrid(grid))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || !dims->m.empty() || !dims->batch.empty() ||
      dims->n.size() != 1 || dims->k.size() != 1 ||
      !getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32() ||
      !isMulAdd(*op.getBlock()))
    return false;
  // x[k] and W[k, n]: the vector is the first operand.
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineExpr n = getAffineDimExpr(dims->n[0], ctx),
             k = getAffineDimExpr(dims->k[0], ctx);
  return maps[0].getResults() == ArrayRef<AffineExpr>{k} &&
         maps[1].getResults() == ArrayRef<AffineExpr>{k, n} &&
         maps[2].getResults() == ArrayRef<AffineExpr>{n};
}

std::optional<LoopExtent> blockbuster::loopExtent(OpBuilder &b,
                                                  linalg::GenericOp op,
                                                  unsigned dim) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      auto d = dyn_cast<AffineDimExpr>(expr);
      if (!d || d.getPosition() != dim)
        continue;
      std::optional<int64_t> bound = constantUpperBound(operand.get(), pos);
      if (!bound)
        continue;
      Value value = b.createOrFold<memref::DimOp>(op.getLoc(), operand.get(),
                                                  static_cast<int64_t>(pos));
      return LoopExtent{value, *bound};
    }
  }
  return std::nullopt;
}

SmallVector<Value>
blockbuster::operandIndices(AffineMap map,
                            const DenseMap<unsigned, Value> &dimValues) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(
        dimValues.lookup(cast<AffineDimExpr>(expr).getPosition()));
  return indices;
}

std::optional<AccumulationFold>
blockbuster::findAccumulationFold(linalg::GenericOp dot) {
  Value result = dot.getDpsInits()[0];
  if (!result.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  Operation *fill = nullptr;
  linalg::GenericOp add;
  for (Operation *user : result.getUsers()) {
    if (user == dot)
      continue;
    if (user->getBlock() != dot->getBlock())
      return std::nullopt;
    if (isZeroFill(user, result) && user->isBeforeInBlock(dot) && !fill)
      fill = user;
    else if (auto generic = dyn_cast<linalg::GenericOp>(user);
             generic && dot->isBeforeInBlock(generic) && !add &&
             isElementwiseAddInto(generic, result))
      add = generic;
    else
      return std::nullopt;
  }
  if (!fill || !add)
    return std::nullopt;
  Value acc = add.getDpsInits()[0];
  if (!getElementTypeOrSelf(acc.getType()).isF32())
    return std::nullopt;
  // The ops between the dot and the add must leave acc alone: the lanes
  // now update it before them.
  for (Operation *op = dot->getNextNode(); op != add; op = op->getNextNode()) {
    bool touches = false;
    op->walk([&](Operation *nested) {
      touches |= llvm::is_contained(nested->getOperands(), acc);
    });
    if (touches)
      return std::nullopt;
  }
  return AccumulationFold{acc, fill, add};
}


void blockbuster::eraseLoweredContraction(
    RewriterBase &rewriter, linalg::GenericOp dot,
    const std::optional<AccumulationFold> &fold) {
  Value result = dot.getDpsInits()[0];
  if (fold) {
    rewriter.eraseOp(fold->add);
    rewriter.eraseOp(fold->fill);
  }
  rewriter.eraseOp(dot);
  if (fold && result.use_empty())
    rewriter.eraseOp(result.getDefiningOp());
}

Value IndexArithmetic::index(int64_t value) {
  return arith::ConstantIndexOp::create(rewriter, loc, value);
}

Value IndexArithmetic::add(Value a, Value b) {
  return rewriter.createOrFold<arith::AddIOp>(loc, a, b);
}

Value IndexArithmetic::mul(Value a, int64_t b) {
  return rewriter.createOrFold<arith::MulIOp>(loc, a, index(b));
}

Value IndexArithmetic::div(Value a, int64_t b) {
  return rewriter.createOrFold<arith::DivUIOp>(loc, a, index(b));
}

Value IndexArithmetic::rem(Value a, int64_t b) {
  return rewriter.createOrFold<arith::RemUIOp>(loc, a, index(b));
}

Value IndexArithmetic::below(Value a, Value bound) {
  return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, a,
                               bound);
}
