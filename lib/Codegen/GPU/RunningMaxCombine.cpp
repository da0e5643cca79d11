//===- RunningMaxCombine.cpp - FlashAttention's combine of a single pass --===//

#include "RunningMaxCombine.h"

#include "Blockbuster/Conversion/BlockToLinalg/BlockToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"

#include <cmath>

#define DEBUG_TYPE "gpu-flash-attention"

using namespace mlir;

namespace blockbuster {

namespace {

FailureOr<OnlineCombine> noMatch(const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "online combine kept: " << reason << "\n");
  return failure();
}

Value yielded(linalg::GenericOp op) {
  return op.getBody()->getTerminator()->getOperand(0);
}

bool isElementwise(linalg::GenericOp op) {
  return op.getNumLoops() == op.getNumParallelLoops() &&
         op.getNumDpsInits() == 1;
}

/// The operand number of `op`'s block argument `value`, if it is one.
std::optional<unsigned> argumentNumber(linalg::GenericOp op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBody())
    return std::nullopt;
  return arg.getArgNumber();
}

std::optional<float> floatConstant(Value value) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return float(attr.getValueAsDouble());
}

/// The shift of a running maximum x, `select(x == c, z, x)` (rule 9 shifts
/// by 0 where a whole tile is masked, m = -inf): the select, when x's only
/// uses are that compare and that select.
struct Shift {
  arith::SelectOp select;
  float compared = 0, zero = 0;
  bool operator==(const Shift &other) const {
    return compared == other.compared && zero == other.zero &&
           std::signbit(zero) == std::signbit(other.zero);
  }
};
std::optional<Shift> shiftOf(Value x) {
  arith::CmpFOp compare;
  arith::SelectOp select;
  for (Operation *user : x.getUsers()) {
    if (auto c = dyn_cast<arith::CmpFOp>(user); c && !compare)
      compare = c;
    else if (auto s = dyn_cast<arith::SelectOp>(user); s && !select)
      select = s;
    else
      return std::nullopt;
  }
  if (!compare || !select ||
      compare.getPredicate() != arith::CmpFPredicate::OEQ ||
      compare.getLhs() != x || !compare->hasOneUse() ||
      select.getCondition() != compare.getResult() ||
      select.getFalseValue() != x)
    return std::nullopt;
  std::optional<float> compared = floatConstant(compare.getRhs());
  std::optional<float> zero = floatConstant(select.getTrueValue());
  if (!compared || !zero)
    return std::nullopt;
  return Shift{select, *compared, *zero};
}

/// Whether `op`'s body is exp(a - b) of its inputs a = operand 0 and b =
/// operand 1.
bool isExpOfDifference(linalg::GenericOp op) {
  auto exp = yielded(op).getDefiningOp<math::ExpOp>();
  auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>() : nullptr;
  return sub && op.getNumDpsInputs() == 2 &&
         argumentNumber(op, sub.getLhs()) == 0u &&
         argumentNumber(op, sub.getRhs()) == 1u;
}

} // namespace

FailureOr<OnlineCombine> matchOnlineCombine(scf::ForOp loop) {
  Block *body = loop.getBody();
  // Who writes and who reads each buffer in the loop (its ops are flat:
  // linalg ops on buffers, allocations, index arithmetic, views).
  DenseMap<Value, SmallVector<Operation *>> writers, readers;
  for (Operation &op : body->without_terminator()) {
    if (isa<memref::AllocOp>(op))
      continue;
    if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(op)) {
      auto dps = cast<DestinationStyleOpInterface>(op);
      for (Value init : dps.getDpsInits())
        writers[init].push_back(&op);
      for (OpOperand *input : dps.getDpsInputOperands())
        readers[input->get()].push_back(&op);
      continue;
    }
    if (op.getNumRegions())
      return noMatch("the loop has an op with regions");
  }
  auto inLoop = [&](Value buffer) {
    Operation *def = buffer.getDefiningOp();
    return def && def->getBlock() == body;
  };
  auto onlyWriter = [&](Value buffer) -> linalg::GenericOp {
    auto it = writers.find(buffer);
    if (it == writers.end() || it->second.size() != 1)
      return {};
    return dyn_cast<linalg::GenericOp>(it->second.front());
  };

  // The running maximum: a state m that a copy of max(m, m_j) updates, m_j
  // a row max of the loop.
  OnlineCombine match;
  Value state, tileMaxBuffer;
  for (auto copy : body->getOps<linalg::CopyOp>()) {
    Value candidate = copy.getOutputs()[0];
    linalg::GenericOp newMax = onlyWriter(copy.getInputs()[0]);
    if (inLoop(candidate) || writers[candidate].size() != 1 || !newMax ||
        !isElementwise(newMax) || newMax.getNumDpsInputs() != 2)
      continue;
    auto max = yielded(newMax).getDefiningOp<arith::MaximumFOp>();
    if (!max)
      continue;
    std::optional<unsigned> lhs = argumentNumber(newMax, max.getLhs());
    std::optional<unsigned> rhs = argumentNumber(newMax, max.getRhs());
    if (!lhs || !rhs || *lhs + *rhs != 1 ||
        newMax.getDpsInputs()[0] != candidate)
      continue;
    // m_j: filled, then reduced.
    SmallVector<Operation *> tileMaxWriters = writers[newMax.getDpsInputs()[1]];
    auto tileMax = tileMaxWriters.size() == 2 &&
                           isa<linalg::FillOp>(tileMaxWriters[0])
                       ? dyn_cast<linalg::GenericOp>(tileMaxWriters[1])
                       : linalg::GenericOp();
    if (!tileMax || tileMax.getNumReductionLoops() != 1 ||
        !yielded(tileMax).getDefiningOp<arith::MaximumFOp>())
      continue;
    if (match.newMax)
      return noMatch("two running maxima");
    match.newMax = newMax;
    match.tileMax = tileMax;
    state = candidate;
    tileMaxBuffer = newMax.getDpsInputs()[1];
  }
  if (!match.newMax)
    return noMatch("no running maximum");
  Value newMaxBuffer = match.newMax.getDpsInits()[0];

  // Its shift, read by alpha = exp(m - shift) and beta = exp(m_j - shift).
  SmallVector<Operation *> newMaxReaders = readers[newMaxBuffer];
  if (newMaxReaders.size() != 2)
    return noMatch("the new maximum is not read by its shift and its update");
  for (Operation *reader : newMaxReaders)
    if (auto shift = dyn_cast<linalg::GenericOp>(reader))
      match.shift = shift;
  std::optional<Shift> shift;
  if (match.shift && isElementwise(match.shift) &&
      match.shift.getNumDpsInputs() == 1)
    shift = shiftOf(match.shift.getBody()->getArgument(0));
  if (!shift || shift->select.getResult() != yielded(match.shift))
    return noMatch("the new maximum's shift is not select(M == c, z, M)");
  Value shiftBuffer = match.shift.getDpsInits()[0];
  for (Operation *reader : readers[shiftBuffer]) {
    auto exp = dyn_cast<linalg::GenericOp>(reader);
    if (!exp || !isElementwise(exp) || !isExpOfDifference(exp) ||
        exp.getDpsInputs()[1] != shiftBuffer)
      return noMatch("the shift is read by something else than exp(x - "
                     "shift)");
    Value x = exp.getDpsInputs()[0];
    if (x != state && x != tileMaxBuffer)
      return noMatch("the shift is read by something else than alpha and "
                     "beta");
    linalg::GenericOp &role = x == state ? match.alpha : match.beta;
    if (role)
      return noMatch("two alphas or two betas");
    role = exp;
  }
  if (!match.alpha || !match.beta)
    return noMatch("no alpha or no beta");
  Value alphaBuffer = match.alpha.getDpsInits()[0];
  Value betaBuffer = match.beta.getDpsInits()[0];

  // The exponentials: every other reader of m_j reads it only through the
  // shift's function, subtracted from an argument of exp.
  DenseSet<Value> exponentialBuffers;
  for (Operation *reader : readers[tileMaxBuffer]) {
    if (reader == match.newMax || reader == match.beta)
      continue;
    auto exp = dyn_cast<linalg::GenericOp>(reader);
    if (!exp || !isElementwise(exp) || !onlyWriter(exp.getDpsInits()[0]))
      return noMatch("m_j is read by something else than exponentials");
    for (OpOperand *input : exp.getDpsInputOperands()) {
      if (input->get() != tileMaxBuffer)
        continue;
      std::optional<Shift> used =
          shiftOf(exp.getBody()->getArgument(input->getOperandNumber()));
      if (!used || !(*used == *shift) ||
          llvm::any_of(used->select->getUsers(), [&](Operation *user) {
            auto sub = dyn_cast<arith::SubFOp>(user);
            return !sub || sub.getRhs() != used->select.getResult() ||
                   llvm::any_of(sub->getUsers(), [](Operation *u) {
                     return !isa<math::ExpOp>(u);
                   });
          }))
        return noMatch("m_j is read otherwise than through exp(x - shift)");
    }
    match.exponentials.push_back(exp);
    exponentialBuffers.insert(exp.getDpsInits()[0]);
  }
  if (match.exponentials.empty())
    return noMatch("no exponential reads m_j");

  // The rescaled states: t = t alpha + t_j beta, t_j from zero by one
  // accumulating op, t updated by a copy of the result.
  DenseSet<Operation *> accumulates;
  DenseSet<Value> roundings;
  bool rescalableDot = false;
  if (readers[alphaBuffer].size() != readers[betaBuffer].size())
    return noMatch("alpha and beta have different readers");
  for (Operation *reader : readers[alphaBuffer]) {
    OnlineCombine::Rescaled r;
    r.combine = dyn_cast<linalg::GenericOp>(reader);
    if (!r.combine || !isElementwise(r.combine) ||
        !llvm::is_contained(readers[betaBuffer], reader))
      return noMatch("alpha's reader is not a combine of the state");
    auto sum = yielded(r.combine).getDefiningOp<arith::AddFOp>();
    auto lhs = sum ? sum.getLhs().getDefiningOp<arith::MulFOp>() : nullptr;
    auto rhs = sum ? sum.getRhs().getDefiningOp<arith::MulFOp>() : nullptr;
    if (!lhs || !rhs)
      return noMatch("a combine is not t alpha + t_j beta");
    // Which product is by alpha, which by beta, and their other factors.
    auto factors = [&](arith::MulFOp mul, Value by)
        -> std::optional<std::pair<unsigned, unsigned>> {
      std::optional<unsigned> a = argumentNumber(r.combine, mul.getLhs());
      std::optional<unsigned> b = argumentNumber(r.combine, mul.getRhs());
      if (!a || !b || *a >= r.combine.getNumDpsInputs() ||
          *b >= r.combine.getNumDpsInputs())
        return std::nullopt;
      if (r.combine.getDpsInputs()[*a] == by)
        return std::make_pair(*a, *b);
      if (r.combine.getDpsInputs()[*b] == by)
        return std::make_pair(*b, *a);
      return std::nullopt;
    };
    arith::MulFOp byAlpha = lhs, byBeta = rhs;
    if (!factors(byAlpha, alphaBuffer))
      std::swap(byAlpha, byBeta);
    auto alphaFactors = factors(byAlpha, alphaBuffer);
    auto betaFactors = factors(byBeta, betaBuffer);
    if (!alphaFactors || !betaFactors)
      return noMatch("a combine is not t alpha + t_j beta");
    r.product = byAlpha;
    r.alpha = alphaFactors->first;
    r.state = alphaFactors->second;
    r.term = betaFactors->second;
    Value t = r.combine.getDpsInputs()[r.state];
    Value term = r.combine.getDpsInputs()[r.term];
    Value combined = r.combine.getDpsInits()[0];
    // t is carried and only the copy of the combine's result writes it.
    SmallVector<Operation *> tWriters = writers[t];
    r.update = tWriters.size() == 1
                   ? dyn_cast<linalg::CopyOp>(tWriters.front())
                   : linalg::CopyOp();
    if (inLoop(t) || !r.update || r.update.getInputs()[0] != combined ||
        readers[combined].size() != 1 || writers[combined].size() != 1)
      return noMatch("a rescaled state is not updated by a copy of its "
                     "combine");
    // t_j: a zero fill, then one accumulating op, read by the combine.
    SmallVector<Operation *> termWriters = writers[term];
    if (!inLoop(term) || termWriters.size() != 2 ||
        readers[term] != SmallVector<Operation *>{reader})
      return noMatch("a term is not accumulated into a tile of its own");
    r.fill = dyn_cast<linalg::FillOp>(termWriters[0]);
    r.accumulate = dyn_cast<linalg::GenericOp>(termWriters[1]);
    std::optional<float> zero =
        r.fill ? floatConstant(r.fill.getInputs()[0]) : std::nullopt;
    if (!zero || *zero != 0.0f || std::signbit(*zero) || !r.accumulate ||
        r.accumulate.getNumReductionLoops() == 0 ||
        !r.fill->isBeforeInBlock(r.accumulate) ||
        !match.tileMax->isBeforeInBlock(r.accumulate))
      return noMatch("a term is not accumulated from zero");
    if (linalg::isaContractionOpInterface(r.accumulate)) {
      // O_j = P V, P an exponential itself (not rounded: nothing to
      // move) or the rescalable rounding of one.
      Value p = r.accumulate.getDpsInputs()[0];
      if (!exponentialBuffers.contains(p)) {
        linalg::GenericOp rounding = onlyWriter(p);
        auto truncate =
            rounding ? yielded(rounding).getDefiningOp<arith::TruncFOp>()
                     : nullptr;
        if (!truncate || !truncate->hasAttr(kRescalableRoundingAttrName) ||
            !isElementwise(rounding) || rounding.getNumDpsInputs() != 1 ||
            argumentNumber(rounding, truncate.getIn()) != 0u ||
            !exponentialBuffers.contains(rounding.getDpsInputs()[0]))
          return noMatch("a dot's operand is not an exponential or a "
                         "rescalable rounding of one");
        roundings.insert(p);
      }
      rescalableDot = true;
    } else {
      // l_j = rowsum(exponential).
      auto add = yielded(r.accumulate).getDefiningOp<arith::AddFOp>();
      std::optional<unsigned> a =
          add ? argumentNumber(r.accumulate, add.getLhs()) : std::nullopt;
      std::optional<unsigned> b =
          add ? argumentNumber(r.accumulate, add.getRhs()) : std::nullopt;
      if (!a || !b || *a + *b != 1 || r.accumulate.getNumDpsInputs() != 1 ||
          !exponentialBuffers.contains(r.accumulate.getDpsInputs()[0]))
        return noMatch("a term is not a row sum of an exponential or a dot");
    }
    accumulates.insert(r.accumulate);
    match.rescaled.push_back(r);
  }
  if (!rescalableDot)
    return noMatch("no dot of an exponential or its rescalable rounding");
  // Nothing else reads what the exponentials change.
  for (Value buffer : exponentialBuffers)
    for (Operation *reader : readers[buffer])
      if (!accumulates.contains(reader) &&
          !(isa<linalg::GenericOp>(reader) &&
            roundings.contains(cast<linalg::GenericOp>(reader).getDpsInits()[0])))
        return noMatch("an exponential is read by something else");
  for (Value buffer : roundings)
    for (Operation *reader : readers[buffer])
      if (!accumulates.contains(reader))
        return noMatch("a rounding is read by something else than its dot");

  // M, its shift and alpha move right after m_j: what they and their
  // buffers' allocations use must be there by then (or move with them).
  SmallVector<Operation *> moved;
  for (linalg::GenericOp op : {match.newMax, match.shift, match.alpha}) {
    moved.push_back(op);
    if (Operation *alloc = op.getDpsInits()[0].getDefiningOp())
      moved.push_back(alloc);
  }
  for (Operation *each : moved) {
    WalkResult walk = each->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        def = def ? body->findAncestorOpInBlock(*def) : nullptr;
        if (def && match.tileMax->isBeforeInBlock(def) &&
            !llvm::is_contained(moved, def))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return noMatch("the new maximum needs values made after m_j");
  }
  for (linalg::GenericOp exp : match.exponentials)
    if (!match.tileMax->isBeforeInBlock(exp))
      return noMatch("an exponential comes before m_j");
  return match;
}

void rewriteToRunningMax(RewriterBase &rewriter, OnlineCombine match) {
  // M, its shift and alpha right after m_j (with their allocations).
  Operation *point = match.tileMax;
  for (linalg::GenericOp op : {match.newMax, match.shift, match.alpha}) {
    Operation *alloc = op.getDpsInits()[0].getDefiningOp();
    if (alloc && alloc->getBlock() == point->getBlock() &&
        point->isBeforeInBlock(alloc)) {
      rewriter.moveOpAfter(alloc, point);
      point = alloc;
    }
    rewriter.moveOpAfter(op, point);
    point = op;
  }
  // P = exp(S - shift(M)) and its row sum, where they took m_j.
  Value tileMax = match.newMax.getDpsInputs()[1];
  Value newMax = match.newMax.getDpsInits()[0];
  for (linalg::GenericOp exp : match.exponentials)
    rewriter.modifyOpInPlace(exp, [&] {
      for (OpOperand *input : exp.getDpsInputOperands())
        if (input->get() == tileMax)
          input->set(newMax);
    });
  // Each term from t alpha: the accumulation is then the new state.
  auto eraseWithAllocation = [&](Operation *op, Value buffer) {
    rewriter.eraseOp(op);
    if (auto alloc = buffer.getDefiningOp<memref::AllocOp>();
        alloc && alloc->use_empty())
      rewriter.eraseOp(alloc);
  };
  for (OnlineCombine::Rescaled &r : match.rescaled) {
    linalg::GenericOp combine = r.combine;
    SmallVector<AffineMap> maps = combine.getIndexingMapsArray();
    Value term = combine.getDpsInputs()[r.term];
    rewriter.setInsertionPoint(r.accumulate);
    linalg::GenericOp::create(
        rewriter, combine.getLoc(), TypeRange{},
        ValueRange{combine.getDpsInputs()[r.state],
                   combine.getDpsInputs()[r.alpha]},
        ValueRange{term},
        ArrayRef<AffineMap>{maps[r.state], maps[r.alpha], maps[r.term]},
        combine.getIteratorTypesArray(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          IRMapping product;
          product.map(combine.getBody()->getArgument(r.state), args[0]);
          product.map(combine.getBody()->getArgument(r.alpha), args[1]);
          linalg::YieldOp::create(
              b, loc, b.clone(*r.product, product)->getResult(0));
        });
    rewriter.eraseOp(r.fill);
    Value combined = combine.getDpsInits()[0];
    rewriter.modifyOpInPlace(r.update,
                             [&] { r.update->setOperand(0, term); });
    eraseWithAllocation(combine, combined);
  }
  eraseWithAllocation(match.beta, match.beta.getDpsInits()[0]);
}

} // namespace blockbuster
