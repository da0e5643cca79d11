//===- ReduceFusion.cpp - Rule 9 ------------------------------------------===//
//
// Rule 9, reduce-reduce fusion: two reduces over the same axis in one body
// become one reduce over a tuple state, so the blocks of the axis are read
// once. When the second reduce does not read the first's results, the
// states just sit side by side. When it reads the first's running maximum m
// only through exp(x - m), and its terms are linear in those exponentials
// (sums, contractions, products with m-free factors), the online-softmax
// rewrite applies: each iteration uses its own block maximum m_j instead of
// the final m, and the combiner rescales the sums,
//
//   (m_a, t_a) + (m_b, t_b) = (M, t_a e^(m_a - M) + t_b e^(m_b - M)),
//   M = max(m_a, m_b),
//
// which is exact because exp(x - m) = exp(x - m_j) exp(m_j - m).
//
// The state of a fused reduce is described by a role per element (a plain
// built-in combiner, the running maximum, or a sum rescaled by it); the
// combine region is generated from the roles, and a reduce built this way
// is recognised again by regenerating its region and comparing.
//
//===----------------------------------------------------------------------===//

#include "../FusionDriver/FusionUtils.h"
#include "Blockbuster/Dialect/Block/IR/Combiners.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Parser/Parser.h"

#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace blockbuster::block;

namespace {
enum class RoleKind { Plain, RunningMax, Rescaled };

/// How one element of a reduce's state is combined.
struct Role {
  RoleKind kind;
  CombinerKind plain = CombinerKind::Add; // For RoleKind::Plain.
  bool operator==(const Role &other) const {
    return kind == other.kind &&
           (kind != RoleKind::Plain || plain == other.plain);
  }
};

/// The shift to subtract before exponentiating, given a running maximum m:
/// m itself, or 0 where m is -inf (every score of the row so far masked),
/// so that exp(-inf - shift) is 0 rather than exp(-inf + inf) = NaN.
Value createSafeShift(OpBuilder &builder, Location loc, Value max) {
  auto type = cast<TileType>(max.getType());
  auto element = cast<FloatType>(type.getElementType());
  // Each constant right before its first user: the order getRoles restores
  // when cleanup has hoisted them out of a combine region.
  Value negInf = ConstantOp::create(
      builder, loc, builder.getArrayAttr({}),
      FloatAttr::get(element, APFloat::getInf(element.getFloatSemantics(),
                                              /*Negative=*/true)));
  Value masked =
      CompareOp::create(builder, loc, ComparePredicate::eq, max, negInf);
  Value zero = ConstantOp::create(builder, loc, builder.getArrayAttr({}),
                                  FloatAttr::get(element, 0.0));
  return SelectOp::create(builder, loc, masked, zero, max);
}

/// Fills `region` with the combine block for `roles`: arguments are the
/// state then the terms (both of `types`), the yield is the new state.
void buildCombiner(OpBuilder &builder, Location loc, Region &region,
                   ArrayRef<Role> roles, TypeRange types) {
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Type> argumentTypes(types);
  llvm::append_range(argumentTypes, types);
  SmallVector<Location> locations(argumentTypes.size(), loc);
  Block *block =
      builder.createBlock(&region, region.end(), argumentTypes, locations);
  unsigned n = roles.size();
  auto stateArg = [&](unsigned i) { return block->getArgument(i); };
  auto termArg = [&](unsigned i) { return block->getArgument(n + i); };
  Value newMax, stateFactor, termFactor;
  for (auto [index, role] : llvm::enumerate(roles)) {
    if (role.kind != RoleKind::RunningMax)
      continue;
    newMax = MaxOp::create(builder, loc, stateArg(index), termArg(index));
    Value shift = createSafeShift(builder, loc, newMax);
    stateFactor = ExpOp::create(
        builder, loc, SubOp::create(builder, loc, stateArg(index), shift));
    termFactor = ExpOp::create(
        builder, loc, SubOp::create(builder, loc, termArg(index), shift));
  }
  SmallVector<Value> state;
  for (auto [index, role] : llvm::enumerate(roles)) {
    switch (role.kind) {
    case RoleKind::RunningMax:
      state.push_back(newMax);
      break;
    case RoleKind::Plain:
      state.push_back(createCombine(builder, loc, role.plain, stateArg(index),
                                    termArg(index)));
      break;
    case RoleKind::Rescaled: {
      Value a = MulOp::create(builder, loc, stateArg(index), stateFactor);
      Value b = MulOp::create(builder, loc, termArg(index), termFactor);
      state.push_back(AddOp::create(builder, loc, a, b));
      break;
    }
    }
  }
  YieldOp::create(builder, loc, state);
}

/// The roles of `reduce`'s state: one Plain per built-in combiner, or those
/// of a combine region that buildCombiner would generate.
std::optional<SmallVector<Role>> getRoles(ReduceOp reduce) {
  SmallVector<Role> roles;
  if (std::optional<ArrayAttr> combiners = reduce.getCombiners()) {
    for (Attribute kind : *combiners)
      roles.push_back({RoleKind::Plain, cast<CombinerKindAttr>(kind).getValue()});
    return roles;
  }
  // Guess the roles from the yield, then check by regenerating the region.
  Block &combine = reduce.getCombiner().front();
  unsigned n = reduce.getNumResults();
  auto yield = cast<YieldOp>(combine.getTerminator());
  auto isArgs = [&](Operation *op, unsigned index) {
    return op->getNumOperands() == 2 &&
           op->getOperand(0) == combine.getArgument(index) &&
           op->getOperand(1) == combine.getArgument(n + index);
  };
  for (auto [index, value] : llvm::enumerate(yield.getOperands())) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (isa<MaxOp>(def) && isArgs(def, index) && !def->hasOneUse())
      roles.push_back({RoleKind::RunningMax});
    else if (isa<AddOp>(def) && def->getOperand(0).getDefiningOp<MulOp>() &&
             def->getOperand(1).getDefiningOp<MulOp>())
      roles.push_back({RoleKind::Rescaled});
    else if (isa<AddOp>(def) && isArgs(def, index))
      roles.push_back({RoleKind::Plain, CombinerKind::Add});
    else if (isa<MulOp>(def) && isArgs(def, index))
      roles.push_back({RoleKind::Plain, CombinerKind::Mul});
    else if (isa<MaxOp>(def) && isArgs(def, index))
      roles.push_back({RoleKind::Plain, CombinerKind::Max});
    else if (isa<MinOp>(def) && isArgs(def, index))
      roles.push_back({RoleKind::Plain, CombinerKind::Min});
    else
      return std::nullopt;
  }
  OpBuilder builder(reduce.getContext());
  Region expected;
  buildCombiner(builder, reduce.getLoc(), expected, roles,
                reduce.getResultTypes());
  // Cleanup may have merged the region's constants with equal ones outside
  // it: compare a copy with them cloned back in front of their first user.
  Region actual;
  IRMapping mapping;
  reduce.getCombiner().cloneInto(&actual, mapping);
  for (Operation &op : llvm::make_early_inc_range(actual.front())) {
    for (Value operand : op.getOperands()) {
      auto constant = operand.getDefiningOp<ConstantOp>();
      if (!constant || actual.isAncestor(constant->getParentRegion()))
        continue;
      builder.setInsertionPoint(&op);
      Operation *copy = builder.clone(*constant);
      operand.replaceUsesWithIf(copy->getResult(0), [&](OpOperand &use) {
        return actual.isAncestor(use.getOwner()->getParentRegion());
      });
    }
  }
  bool same = OperationEquivalence::isRegionEquivalentTo(
      &expected, &actual, OperationEquivalence::IgnoreLocations);
  expected.dropAllReferences();
  actual.dropAllReferences();
  if (!same)
    return std::nullopt;
  return roles;
}

/// The identity of a role: the initial state of a generated reduce.
Value createIdentity(OpBuilder &builder, Location loc, Role role, Type type) {
  auto tile = cast<TileType>(type);
  CombinerKind kind = role.kind == RoleKind::RunningMax ? CombinerKind::Max
                      : role.kind == RoleKind::Rescaled ? CombinerKind::Add
                                                        : role.plain;
  TypedAttr value = getCombinerIdentity(kind, tile.getElementType());
  SmallVector<Attribute> axes(tile.getAxes().begin(), tile.getAxes().end());
  return ConstantOp::create(builder, loc, builder.getArrayAttr(axes), value);
}

/// For the online rewrite: which results of `second` are linear in
/// exp(x - m) (rescaled) and which do not involve m (plain). Fails when m is
/// used any other way.
std::optional<SmallVector<bool>> classifyOnlineTerms(ReduceOp second,
                                                     Value runningMax) {
  Region &body = second.getBody();
  llvm::DenseSet<Value> scaled;   // Degree-1 in the exponentials.
  llvm::DenseSet<Value> involved; // Anything computed from m.
  for (OpOperand &use : runningMax.getUses()) {
    Operation *user = use.getOwner();
    if (!body.isAncestor(user->getParentRegion()))
      continue; // Uses outside the reduce read the final maximum.
    auto sub = dyn_cast<SubOp>(user);
    if (!sub || sub.getRhs() != runningMax || sub.getLhs() == runningMax ||
        sub->getParentRegion() != &body ||
        !llvm::all_of(sub->getUsers(),
                      [](Operation *u) { return isa<ExpOp>(u); }))
      return std::nullopt;
    involved.insert(sub.getResult());
    for (Operation *exp : sub->getUsers()) {
      if (exp->getParentRegion() != &body)
        return std::nullopt;
      scaled.insert(exp->getResult(0));
      involved.insert(exp->getResult(0));
    }
  }
  auto isScaled = [&](Value v) { return scaled.contains(v); };
  auto isFree = [&](Value v) { return !involved.contains(v); };
  auto maxAxes = cast<TileType>(runningMax.getType()).getAxes();
  for (Operation &op : body.front().without_terminator()) {
    // Fix: an op with a region (a nested reduce) that uses the
    // exponentials inside was taken as free of m, so its result was
    // neither rescaled nor recomputed with the final maximum.
    if (op.getNumRegions() != 0) {
      bool usesInvolved = false;
      op.walk([&](Operation *nested) {
        usesInvolved |= !llvm::all_of(nested->getOperands(), isFree);
      });
      if (usesInvolved)
        return std::nullopt;
    }
    if (llvm::all_of(op.getOperands(), isFree) &&
        !llvm::any_of(op.getResults(), [&](Value r) { return involved.contains(r); }))
      continue;
    if (llvm::any_of(op.getResults(), [&](Value r) { return involved.contains(r); })) {
      // The sub and exp ops seeded above. Fix: exp(exp(x - m) - m) was
      // taken as linear in the exponentials; the x of x - m must be free.
      if (auto sub = dyn_cast<SubOp>(op); sub && !isFree(sub.getLhs()))
        return std::nullopt;
      continue;
    }
    bool linear = false;
    if (isa<NegOp, BroadcastOp>(op) || (isa<TileReduceOp>(op) &&
        cast<TileReduceOp>(op).getKind() == CombinerKind::Add)) {
      linear = isScaled(op.getOperand(0));
    } else if (isa<CastOp>(op) && op.hasAttr(kRescalableAttr)) {
      // A rounding the user let move past a scale (rule 4's
      // divide-after-rounding): cast(x e^(m_j - m)) is taken as
      // cast(x) e^(m_j - m), so P is the rounding of exp(x - m_j).
      linear = isScaled(op.getOperand(0));
    } else if (isa<DotOp, MulOp>(op)) {
      Value a = op.getOperand(0), b = op.getOperand(1);
      linear = (isScaled(a) && isFree(b)) || (isFree(a) && isScaled(b));
    } else if (isa<DivOp>(op)) {
      linear = isScaled(op.getOperand(0)) && isFree(op.getOperand(1));
    } else if (isa<AddOp, SubOp>(op)) {
      linear = isScaled(op.getOperand(0)) && isScaled(op.getOperand(1));
    }
    if (!linear)
      return std::nullopt;
    // Fix: a scaled value must keep every axis of m. One that sums over an
    // axis of m (tile_reduce or dot over the rows) mixes exponentials of
    // different rows, which no per-row rescaling can correct, even if a
    // broadcast gives it the axes back.
    auto resultType = cast<TileType>(op.getResult(0).getType());
    if (!llvm::all_of(maxAxes,
                      [&](StringAttr a) { return resultType.hasAxis(a); }))
      return std::nullopt;
    scaled.insert(op.getResult(0));
    involved.insert(op.getResult(0));
  }
  SmallVector<bool> rescaled;
  std::optional<ArrayAttr> combiners = second.getCombiners();
  for (auto [index, term] : llvm::enumerate(second.getYield().getOperands())) {
    if (isFree(term)) {
      rescaled.push_back(false);
      continue;
    }
    if (!isScaled(term) || !combiners ||
        cast<CombinerKindAttr>((*combiners)[index]).getValue() !=
            CombinerKind::Add)
      return std::nullopt;
    rescaled.push_back(true);
  }
  return rescaled;
}

/// True when `op` (in the same block, after `first`) uses a value computed
/// from `first`'s results by the ops between them.
bool dependsOnReduce(Operation *op, ReduceOp first, Value allowed) {
  llvm::DenseSet<Value> tainted;
  for (Value result : first.getResults())
    if (result != allowed)
      tainted.insert(result);
  for (Operation *it = first->getNextNode(); it && it != op;
       it = it->getNextNode()) {
    bool uses = false;
    it->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        uses |= tainted.contains(operand) || operand == allowed;
    });
    if (uses)
      for (Value result : it->getResults())
        tainted.insert(result);
  }
  bool uses = false;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      uses |= tainted.contains(operand);
  });
  return uses;
}

/// What fusing two reduces takes: the roles of the fused state, and the
/// running maximum of the first that the second reads (null when none).
struct FusionPlan {
  SmallVector<Role> roles;
  Value runningMax;
  unsigned maxIndex = 0;
};

/// The plan of fusing `first` with `second`, or none (saying why through
/// `refuseFn` when given).
std::optional<FusionPlan> planFusion(ReduceOp first, ReduceOp second,
                                     RefusalFn refuseFn) {
  auto refuse = [&](const char *reason) -> std::optional<FusionPlan> {
    if (refuseFn)
      refuseFn("with the reduce at " + describeLocation(first.getLoc()) + ": " +
               reason);
    return std::nullopt;
  };
  std::optional<SmallVector<Role>> firstRoles = getRoles(first);
  std::optional<SmallVector<Role>> secondRoles = getRoles(second);
  if (!firstRoles || !secondRoles)
    return refuse("a combine region that is not generated from roles");

  // Which result of `first`, if any, `second` reads.
  Value runningMax;
  unsigned maxIndex = 0;
  for (OpResult result : first->getResults()) {
    bool used = llvm::any_of(result.getUsers(), [&](Operation *user) {
      return second->isAncestor(user);
    });
    if (!used)
      continue;
    if (runningMax)
      return refuse("reads two of its results");
    runningMax = result;
    maxIndex = result.getResultNumber();
  }
  if (dependsOnReduce(second, first, runningMax))
    return refuse("depends on its results through the ops between them");

  SmallVector<Role> roles = *firstRoles;
  SmallVector<Role> added = *secondRoles;
  if (runningMax) {
    // The online rewrite: m must be a maximum, the second reduce plain.
    Role &maxRole = roles[maxIndex];
    bool isMax =
        maxRole.kind == RoleKind::RunningMax ||
        (maxRole.kind == RoleKind::Plain && maxRole.plain == CombinerKind::Max);
    bool hasOtherMax = llvm::any_of(llvm::enumerate(roles), [&](auto entry) {
      return entry.index() != maxIndex &&
             entry.value().kind == RoleKind::RunningMax;
    });
    // Fix: the combiner rescales f32 state by factors computed in m's
    // element type; a bf16 m gave an f32 * bf16 multiply (invalid IR).
    if (!isMax)
      return refuse("reads a result of it that is not a maximum");
    if (hasOtherMax)
      return refuse("it has a running maximum besides the one read");
    if (!second.getCombiners())
      return refuse("reads its maximum and has a combine region");
    if (!cast<TileType>(runningMax.getType()).getElementType().isF32())
      return refuse("reads its maximum, which is not f32");
    std::optional<SmallVector<bool>> rescaled =
        classifyOnlineTerms(second, runningMax);
    if (!rescaled)
      return refuse("reads its maximum m other than through exp(x - m) "
                    "in terms linear in the exponentials and summed");
    auto maxAxes = cast<TileType>(runningMax.getType()).getAxes();
    for (auto [index, isRescaled] : llvm::enumerate(*rescaled)) {
      if (!isRescaled)
        continue;
      auto stateType = cast<TileType>(second.getResult(index).getType());
      if (!llvm::all_of(maxAxes,
                        [&](StringAttr a) { return stateType.hasAxis(a); }) ||
          !stateType.getElementType().isF32())
        return refuse("a rescaled state lacks an axis of the maximum, or "
                      "is not f32");
      added[index] = {RoleKind::Rescaled};
    }
    maxRole = {RoleKind::RunningMax};
  }
  llvm::append_range(roles, added);
  // Fix: the combiner rescales every Rescaled element by the one running
  // maximum; fusing two independent online reduces side by side rescaled
  // the first's sums by the second's maximum. Not fused.
  if (llvm::count_if(roles, [](const Role &role) {
        return role.kind == RoleKind::RunningMax;
      }) > 1)
    return refuse("the fused reduce would have two running maxima");
  return FusionPlan{roles, runningMax, maxIndex};
}

} // namespace

ReduceOp blockbuster::block::findReduceToFuse(ReduceOp second,
                                              RefusalFn refuse) {
  bool candidate = false;
  for (Operation *it = second->getPrevNode(); it; it = it->getPrevNode()) {
    auto first = dyn_cast<ReduceOp>(it);
    // A reduce without results is dead (rule 7 erases it); the PDL pattern
    // names the first reduce by its results.
    if (!first || first.getAxisAttr() != second.getAxisAttr() ||
        first->getNumResults() == 0)
      continue;
    candidate = true;
    if (planFusion(first, second, refuse))
      return first;
  }
  if (!candidate && refuse)
    refuse("no reduce over " + second.getAxis() + " before it in its block");
  return {};
}

bool blockbuster::block::readsRunningMaximum(ReduceOp first, ReduceOp second) {
  return llvm::any_of(first->getUsers(), [&](Operation *user) {
    return second->isAncestor(user);
  });
}

ReduceOp blockbuster::block::fuseReduces(RewriterBase &rewriter, ReduceOp first,
                                         ReduceOp second) {
  std::optional<FusionPlan> plan = planFusion(first, second, {});
  assert(plan && "fuseReduces needs findReduceToFuse's reduce");
  SmallVector<Role> &roles = plan->roles;
  Value runningMax = plan->runningMax;
  unsigned maxIndex = plan->maxIndex;
  // Build the fused reduce where the second one is; what reads the first
  // one's results in between is reordered after it.
  Location loc = second.getLoc();
  SmallVector<Type> types(first->getResultTypes());
  llvm::append_range(types, second->getResultTypes());
  rewriter.setInsertionPoint(second);
  // Fix: a region combiner's inits need not be identities (a sum
  // starting at 5); they were dropped (plain result) or replaced by
  // identities (second reduce). Either reduce with a region keeps its
  // inits, so the result stays a region reduce.
  bool plainOnly = !first.hasRegionCombiner() && !second.hasRegionCombiner() &&
                   llvm::all_of(roles, [](const Role &role) {
                     return role.kind == RoleKind::Plain;
                   });
  ReduceOp fused;
  if (plainOnly) {
    SmallVector<Attribute> kinds;
    for (const Role &role : roles)
      kinds.push_back(CombinerKindAttr::get(rewriter.getContext(), role.plain));
    fused = ReduceOp::create(rewriter, loc, types, second.getAxisAttr(),
                             rewriter.getArrayAttr(kinds), ValueRange{});
  } else {
    SmallVector<Value> inits;
    if (first.hasRegionCombiner())
      llvm::append_range(inits, first.getInits());
    else
      for (auto [index, type] : llvm::enumerate(first->getResultTypes()))
        inits.push_back(createIdentity(rewriter, loc, roles[index], type));
    if (second.hasRegionCombiner())
      llvm::append_range(inits, second.getInits());
    else
      for (auto [index, type] : llvm::enumerate(second->getResultTypes()))
        inits.push_back(createIdentity(
            rewriter, loc, roles[first.getNumResults() + index], type));
    fused = ReduceOp::create(rewriter, loc, types, second.getAxisAttr(),
                             ArrayAttr(), inits);
    buildCombiner(rewriter, loc, fused.getCombiner(), roles, types);
  }

  // The body: the first body, then the second with m replaced by the
  // first body's block maximum.
  Block *body = rewriter.createBlock(&fused.getBody());
  rewriter.setInsertionPointToEnd(body);
  IRMapping mapping;
  for (Operation &op : first.getBody().front().without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> yielded =
      llvm::map_to_vector(first.getYield().getOperands(),
                          [&](Value v) { return mapping.lookupOrDefault(v); });
  // The second body subtracts the block's own maximum, made safe for
  // fully masked blocks like the combiner's.
  if (runningMax)
    mapping.map(runningMax, createSafeShift(rewriter, loc, yielded[maxIndex]));
  for (Operation &op : second.getBody().front().without_terminator())
    rewriter.clone(op, mapping);
  for (Value v : second.getYield().getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  YieldOp::create(rewriter, loc, yielded);

  unsigned numFirst = first.getNumResults();
  rewriter.replaceOp(first, fused.getResults().take_front(numFirst));
  rewriter.replaceOp(second, fused.getResults().drop_front(numFirst));
  restoreOrder(rewriter, *fused->getBlock());
  return fused;
}

#include "Rules/ReduceFusion.h.inc"

void blockbuster::block::populateReduceFusionPatterns(
    RewritePatternSet &patterns) {
  populateGeneratedPDLLPatterns(patterns);
  registerFusionVocabulary(patterns.getPDLPatterns());
}
