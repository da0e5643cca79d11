//===- PrologueStatistics.cpp - Row statistics of a GEMM's A tile ---------===//
//
// The matchers of PrologueStatistics.h: the sum of squares of X's rows, as
// the fused program computes it for RMSNorm + matmul (a k loop of the rows'
// tiles), recognised where the GEMM block's prologue reads it.
//
//===----------------------------------------------------------------------===//

#include "PrologueStatistics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpu-warpgroup-matmul"

using namespace mlir;
using namespace blockbuster;

namespace {

LogicalResult fail(Operation *op, const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "no prologue statistics: " << reason << ": "
                          << *op << "\n");
  return failure();
}

/// Whether `a` computes the value `b` does: the same value, one that
/// `equal` maps to `b`, or the result of the same pure op (name,
/// attributes) of operands that are equivalent in turn (index arithmetic
/// of two loops over the same steps).
bool equivalent(Value a, Value b, const DenseMap<Value, Value> &equal,
                int depth = 0) {
  if (a == b)
    return true;
  if (auto it = equal.find(a); it != equal.end())
    return it->second == b;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (depth > 8 || !x || !y || x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() || x->getNumRegions() ||
      !isPure(x) ||
      cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber())
    return false;
  return llvm::all_of(llvm::zip_equal(x->getOperands(), y->getOperands()),
                      [&](auto pair) {
                        return equivalent(std::get<0>(pair), std::get<1>(pair),
                                          equal, depth + 1);
                      });
}

} // namespace

bool blockbuster::equivalentIndex(OpFoldResult a, OpFoldResult b,
                                  const DenseMap<Value, Value> &equal) {
  std::optional<int64_t> c = getConstantIntValue(a), d = getConstantIntValue(b);
  if (c || d)
    return c == d;
  auto x = dyn_cast<Value>(a), y = dyn_cast<Value>(b);
  return x && y && equivalent(x, y, equal);
}

namespace {

bool equivalent(ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b,
                const DenseMap<Value, Value> &equal) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip_equal(a, b), [&](auto pair) {
           return equivalentIndex(std::get<0>(pair), std::get<1>(pair), equal);
         });
}

bool isZeroFill(linalg::FillOp fill) {
  return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

/// The value of `v` with the other operand of the commutative `add`.
Value otherOperand(arith::AddFOp add, Value v) {
  if (add.getLhs() == v)
    return add.getRhs();
  if (add.getRhs() == v)
    return add.getLhs();
  return Value();
}

} // namespace

Value blockbuster::sumOfSquaresInput(linalg::GenericOp op) {
  MLIRContext *ctx = op.getContext();
  AffineExpr m = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx);
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 2 || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray()[1] != utils::IteratorType::reduction ||
      op.getIndexingMapsArray()[0].getResults() != ArrayRef<AffineExpr>{m, k} ||
      op.getIndexingMapsArray()[1].getResults() != ArrayRef<AffineExpr>{m})
    return Value();
  Block *body = op.getBody();
  if (body->getOperations().size() != 4)
    return Value();
  auto sum = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!sum)
    return Value();
  auto square =
      otherOperand(sum, body->getArgument(1)).getDefiningOp<arith::MulFOp>();
  if (!square || square.getLhs() != square.getRhs())
    return Value();
  auto widen = square.getLhs().getDefiningOp<arith::ExtFOp>();
  if (!widen || widen.getIn() != body->getArgument(0) ||
      !widen.getType().isF32())
    return Value();
  return op.getDpsInputs()[0];
}

bool blockbuster::isRowAccumulation(linalg::GenericOp op, Value in,
                                    Value out) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getDpsInputs()[0] != in || op.getDpsInits()[0] != out ||
      op.getNumLoops() != 1 || op.getNumParallelLoops() != 1 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block *body = op.getBody();
  auto sum = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  return body->getOperations().size() == 2 && sum &&
         otherOperand(sum, body->getArgument(1)) == body->getArgument(0);
}

FailureOr<StatisticsLoop>
blockbuster::matchStatisticsLoop(Value tile, const WarpgroupPrologue &p,
                                 scf::ForOp reduce,
                                 DenseMap<Value, Value> equal) {
  auto alloc = tile.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getType().getRank() != 1 ||
      !alloc.getType().getElementType().isF32())
    return fail(reduce, "the row input is not an f32 vector of the block");
  StatisticsLoop found;
  linalg::GenericOp add;
  for (Operation *user : tile.getUsers()) {
    if (auto fill = dyn_cast<linalg::FillOp>(user);
        fill && fill->getBlock() == alloc->getBlock() && isZeroFill(fill)) {
      if (found.fill)
        return fail(fill, "the statistics are zero-filled twice");
      found.fill = fill;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(user);
    auto loop = generic ? dyn_cast<scf::ForOp>(generic->getParentOp())
                        : scf::ForOp();
    if (!loop || loop->getBlock() != alloc->getBlock() ||
        !isRowAccumulation(generic, generic.getDpsInputs()[0], tile))
      continue;
    if (found.loop)
      return fail(generic, "the statistics are accumulated twice");
    found.loop = loop;
    add = generic;
  }
  if (!found.fill || !found.loop ||
      !found.fill->isBeforeInBlock(found.loop))
    return fail(alloc, "the statistics are not zero-filled, then "
                       "accumulated in a loop");
  scf::ForOp loop = found.loop;
  auto sameConstant = [](Value a, Value b) {
    std::optional<int64_t> x = getConstantIntValue(a),
                           y = getConstantIntValue(b);
    return x && x == y;
  };
  if (!loop.getInitArgs().empty() ||
      !sameConstant(loop.getLowerBound(), reduce.getLowerBound()) ||
      !sameConstant(loop.getUpperBound(), reduce.getUpperBound()) ||
      !sameConstant(loop.getStep(), reduce.getStep()))
    return fail(loop, "not a loop over the mainloop's k steps");
  if (loop->getBlock() == reduce->getBlock() &&
      !loop->isBeforeInBlock(reduce))
    return fail(loop, "the statistics loop is not before the mainloop");

  // The loop's work: the view of X, a zero-filled f32 tile, the sum of
  // squares into it, the accumulation; index arithmetic.
  Value partial = add.getDpsInputs()[0];
  linalg::GenericOp squares;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == add.getOperation() || isPure(&op))
      continue;
    if (auto fill = dyn_cast<linalg::FillOp>(op);
        fill && fill.getDpsInits()[0] == partial && isZeroFill(fill))
      continue;
    if (auto allocOp = dyn_cast<memref::AllocOp>(op);
        allocOp && allocOp.getResult() == partial)
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || squares || generic.getDpsInits()[0] != partial ||
        !sumOfSquaresInput(generic))
      return fail(&op, "the statistics loop does more than a sum of squares");
    squares = generic;
  }
  if (!squares || partial.getDefiningOp<memref::AllocOp>() == nullptr ||
      partial.getDefiningOp()->getBlock() != loop.getBody() ||
      !squares->isBeforeInBlock(add))
    return fail(loop, "no sum of squares into a tile of the iteration");

  // Of the prologue's raw tile, step for step.
  auto view = sumOfSquaresInput(squares).getDefiningOp<memref::SubViewOp>();
  memref::SubViewOp raw = p.raw;
  equal[loop.getInductionVar()] = reduce.getInductionVar();
  if (!view || view.getSource() != raw.getSource() ||
      !equivalent(view.getMixedOffsets(), raw.getMixedOffsets(), equal) ||
      !equivalent(view.getMixedSizes(), raw.getMixedSizes(), equal) ||
      !equivalent(view.getMixedStrides(), raw.getMixedStrides(), equal))
    return fail(squares, "the statistics do not read the prologue's tile "
                         "of X");
  return found;
}

FailureOr<PrologueStatistics>
blockbuster::matchPrologueStatistics(const WarpgroupPrologue &p,
                                     Operation *reduce) {
  auto loop = dyn_cast<scf::ForOp>(reduce);
  if (!loop)
    return fail(reduce, "no k loop");
  if (p.rowInputs.size() != 1)
    return fail(p.op, "not one row input");
  // The mainloop widens the raw pairs as bf16 (the upper half of an f32).
  memref::SubViewOp raw = p.raw;
  if (!raw.getSourceType().getElementType().isBF16())
    return fail(p.op, "the raw tile is not bf16");
  Value tile = p.rowInputs.front()->get();
  auto alloc = tile.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != reduce->getBlock() ||
      !isa_and_nonnull<gpu::AddressSpaceAttr>(alloc.getType().getMemorySpace()))
    return fail(p.op, "the row input is not a workgroup tile of the block");
  if (!WarpgroupPrologueLowering::leavesRowInputToAccumulator(p))
    return fail(p.op, "the row input is not only in the row factor");
  FailureOr<StatisticsLoop> accumulation = matchStatisticsLoop(tile, p, loop);
  if (failed(accumulation))
    return failure();
  for (Operation *user : tile.getUsers())
    if (user != accumulation->fill && user != p.op &&
        user->getParentOp() != accumulation->loop)
      return fail(user, "the statistics have another user");
  return PrologueStatistics{alloc, *accumulation};
}
