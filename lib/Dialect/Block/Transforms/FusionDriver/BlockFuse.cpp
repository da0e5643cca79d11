//===- BlockFuse.cpp - The ordered greedy fusion driver -------------------===//
//
// Upstream's greedy driver applies patterns in any order it likes; fusion
// needs a global priority between rules (a companion rule must get its
// chance before a fusion rule consumes the structure it would have
// exposed). So this driver keeps one frozen pattern set per rule and walks
// them itself: rule by rule in priority order, op by op breadth-first, and
// back to the first rule after every rewrite.
//
//===----------------------------------------------------------------------===//

#include "FusionRewriter.h"
#include "FusionUtils.h"
#include "FusionWorklist.h"
#include "ProgramShadow.h"
#include "UserRules.h"

#include "Blockbuster/Dialect/Block/Analysis/CostModel.h"
#include "Blockbuster/Dialect/Block/Analysis/FusionReport.h"
#include "Blockbuster/Dialect/Block/Analysis/KernelCost.h"
#include "Blockbuster/Dialect/Block/Analysis/TargetDescription.h"
#include "Blockbuster/Dialect/Block/Transforms/FusionRules.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/Support/Format.h"

#include <array>
#include <deque>
#include <optional>

namespace blockbuster::block {
#define GEN_PASS_DEF_BLOCKFUSE
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"
} // namespace blockbuster::block

using namespace mlir;
using namespace blockbuster::block;

namespace {
/// The catalogue: rule number, name, pattern-set builder.
struct RuleEntry {
  unsigned number;
  const char *name;
  void (*populate)(RewritePatternSet &);
};

constexpr unsigned kNumRules = 10;
constexpr RuleEntry kCatalogue[kNumRules] = {
    {1, "producer-consumer map fusion", populateProducerConsumerFusionPatterns},
    {2, "sibling map fusion", populateSiblingFusionPatterns},
    {3, "map-into-reduce fusion", populateMapIntoReducePatterns},
    {4, "scale hoisting", populateScaleHoistingPatterns},
    {5, "shift hoisting", populateShiftHoistingPatterns},
    {6, "replication", populateReplicationPatterns},
    {7, "cleanup", populateCleanupPatterns},
    {8, "structure normalisation", populateStructureNormalizationPatterns},
    {9, "reduce-reduce fusion", populateReduceFusionPatterns},
    {10, "axis untying", populateAxisUntyingPatterns},
};

/// The main loop's default priority: the paper's 8, 4, 5, 9, 3, 1, 2 with
/// the cleanup rule 7 right after 8, both only tidy (docs/FusionRules.md).
constexpr unsigned kDefaultOrder[] = {8, 7, 4, 5, 9, 3, 1, 2};

/// The number of the rule set of the patterns `rules=FILE` loads.
constexpr unsigned kUserRule = 0;

/// The rules only the extend step tries (kept when the estimate drops).
constexpr unsigned kReplicationRule = 6, kUntyingRule = 10;
bool isExtendRule(unsigned number) {
  return number == kReplicationRule || number == kUntyingRule;
}

/// The name of rule `number`, for `explain`.
StringRef getRuleName(unsigned number) {
  if (number == kUserRule)
    return "user rules";
  return llvm::find_if(kCatalogue, [&](const RuleEntry &e) {
           return e.number == number;
         })->name;
}

/// Collects the reasons patterns give for not matching
/// (`notifyMatchFailure`) while `block-fuse{explain}` asks for them, and
/// passes every notification on to the worklist.
class FailureReasons : public RewriterBase::ForwardingListener {
public:
  using ForwardingListener::ForwardingListener;

  /// Starts collecting, for the pattern about to be tried.
  void collect(StringRef pattern) {
    collecting = true;
    this->pattern = pattern.str();
  }
  void stop() { collecting = false; }
  /// The reasons collected, each with the pattern that gave it (empty for
  /// a PDL constraint: bytecode matches all of a rule's PDL patterns at
  /// once), in order.
  SmallVector<std::pair<std::string, std::string>> take() {
    return std::move(reasons);
  }

  void
  notifyMatchFailure(Location loc,
                     function_ref<void(Diagnostic &)> reasonCallback) override {
    if (collecting) {
      Diagnostic diagnostic(loc, DiagnosticSeverity::Remark);
      reasonCallback(diagnostic);
      reasons.push_back({pattern, diagnostic.str()});
    }
    ForwardingListener::notifyMatchFailure(loc, reasonCallback);
  }

private:
  bool collecting = false;
  std::string pattern;
  SmallVector<std::pair<std::string, std::string>> reasons;
};

/// The kinds of op the patterns of `patterns` can match at, or none when
/// one of them matches any op (or ops by interface or trait). The driver
/// does not try a rule at other ops: PDL bytecode would be run on every op
/// only to find that its root kind differs.
std::optional<llvm::DenseSet<OperationName>>
getRootKinds(RewritePatternSet &patterns) {
  llvm::DenseSet<OperationName> kinds;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns()) {
    std::optional<OperationName> kind = pattern->getRootKind();
    if (!kind)
      return std::nullopt;
    kinds.insert(*kind);
  }
  if (ModuleOp module = patterns.getPDLPatterns().getModule()) {
    for (auto pattern : module.getOps<pdl::PatternOp>()) {
      Value root = pattern.getRewriter().getRoot();
      auto rootOp =
          root ? root.getDefiningOp<pdl::OperationOp>() : pdl::OperationOp();
      std::optional<StringRef> name =
          rootOp ? rootOp.getOpName() : std::nullopt;
      if (!name)
        return std::nullopt;
      kinds.insert(OperationName(*name, module.getContext()));
    }
  }
  return kinds;
}

/// The ops of a program breadth-first: the program, its top-level ops, then
/// the ops of their bodies, one nesting level at a time, each level in
/// order; addressed by position. The extend step reads one position per
/// try, and a try changes only the units (top-level ops) it touched, so the
/// order is kept unit by unit: each unit's ops level by level (its level 0
/// is the unit itself), and level d of the program is the concatenation of
/// the units' levels d in program order. Rebuilding the whole list after
/// every try made the extend step quadratic in the program's size.
class BreadthFirstOrder {
public:
  /// Forgets the ops of `unit`, which changed, went or is new.
  void forget(Operation *unit) { levelsOf.erase(unit); }

  /// Takes the order of `program`, whose units other than those forgotten
  /// since the last update are unchanged.
  void update(ProgramOp program) {
    this->program = program;
    for (Level &level : levels) {
      level.units.clear();
      level.size = 0;
    }
    for (Operation &unit : program.getBody().front()) {
      auto [it, inserted] = levelsOf.try_emplace(&unit);
      if (inserted)
        collectLevels(&unit, it->second);
      if (levels.size() < it->second.size())
        levels.resize(it->second.size());
      for (auto [level, ops] : llvm::zip(levels, it->second)) {
        level.units.push_back({level.size, &unit});
        level.size += ops.size();
      }
    }
  }

  /// The op at `position`, or null past the last one.
  Operation *at(size_t position) const {
    if (position == 0)
      return program;
    std::optional<Location> location = locate(position);
    if (!location)
      return nullptr;
    return levelsOf.at(location->unit)[location->depth][location->offset];
  }

  /// The unit whose op is at `position` (null for the program itself and
  /// past the last op). Reads only the order's tables: valid for a unit that
  /// changed, or went, since the last update.
  Operation *unitAt(size_t position) const {
    if (position == 0)
      return nullptr;
    std::optional<Location> location = locate(position);
    return location ? location->unit : nullptr;
  }

  /// Appends the positions of the ops of `unit` below `end`, ascending.
  void collectPositions(Operation *unit, size_t end,
                        SmallVectorImpl<size_t> &positions) const {
    auto it = levelsOf.find(unit);
    if (it == levelsOf.end())
      return;
    size_t levelStart = 1;
    for (auto [depth, level] : llvm::enumerate(levels)) {
      if (depth >= it->second.size())
        break;
      for (auto [start, other] : level.units)
        if (other == unit)
          for (size_t i = 0, e = it->second[depth].size(); i < e; ++i)
            if (levelStart + start + i < end)
              positions.push_back(levelStart + start + i);
      levelStart += level.size;
    }
  }

private:
  /// Where the op at a position (not 0) is: its unit, its depth below the
  /// program (0 for the unit itself) and its offset among the unit's ops at
  /// that depth.
  struct Location {
    Operation *unit;
    size_t depth;
    size_t offset;
  };
  std::optional<Location> locate(size_t position) const {
    --position;
    for (auto [depth, level] : llvm::enumerate(levels)) {
      if (position >= level.size) {
        position -= level.size;
        continue;
      }
      // The last unit whose ops at this level start at or before it.
      auto next = llvm::upper_bound(
          level.units, position,
          [](size_t p, const std::pair<size_t, Operation *> &start) {
            return p < start.first;
          });
      auto [start, unit] = *std::prev(next);
      return Location{unit, depth, position - start};
    }
    return std::nullopt;
  }

private:
  using Levels = SmallVector<SmallVector<Operation *>>;

  static void collectLevels(Operation *unit, Levels &levels) {
    levels.push_back({unit});
    while (true) {
      SmallVector<Operation *> below;
      for (Operation *op : levels.back())
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (Operation &nested : block)
              below.push_back(&nested);
      if (below.empty())
        return;
      levels.push_back(std::move(below));
    }
  }

  /// The units with ops at one depth below the program, in program order,
  /// each with the number of the level's ops before its own.
  struct Level {
    SmallVector<std::pair<size_t, Operation *>> units;
    size_t size = 0;
  };

  ProgramOp program;
  DenseMap<Operation *, Levels> levelsOf;
  SmallVector<Level> levels;
};

struct BlockFusePass
    : public blockbuster::block::impl::BlockFuseBase<BlockFusePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    targetDescription = lookupTargetDescription(target);
    if (!targetDescription)
      return emitError(UnknownLoc::get(context))
             << "block-fuse: unknown target '" << target << "' (h100, h200, cpu)";
    // The extend step judges at one block size for every axis (128), where
    // a block's serial work (CostModel.h) says nothing about the blocks
    // block-select will choose: a decode kernel's loops are long at 16 rows
    // per block and short at 4. It weighs bytes, FLOPs and waves; the
    // serial work decides between the forms it keeps (snapshots) and their
    // block sizes in block-select.
    judgedTarget = withoutSerialWork(*targetDescription);
    if (!pricePrologues)
      judgedTarget.prologueFlopsPerSecond = 0;
    SmallVector<unsigned> requested(order.begin(), order.end());
    if (requested.empty())
      requested.assign(std::begin(kDefaultOrder), std::end(kDefaultOrder));
    // The user's rules (`rules=FILE`) are rule 0: where `order` puts them,
    // else first.
    if (!rules.empty() && !llvm::is_contained(requested, kUserRule))
      requested.insert(requested.begin(), kUserRule);
    for (unsigned number : requested) {
      RewritePatternSet patterns(context);
      if (number == kUserRule) {
        if (rules.empty())
          return emitError(UnknownLoc::get(context))
                 << "block-fuse: rule 0 in `order` is the rules of "
                    "`rules=FILE`, and no file is given";
        if (failed(loadUserRules(context, rules, patterns)))
          return failure();
      } else {
        const RuleEntry *entry = llvm::find_if(
            kCatalogue, [&](const RuleEntry &e) { return e.number == number; });
        // Fix: rule 6 is in the catalogue (for the trace), so `order=6` used
        // to be accepted and ran replication in the main loop, without the
        // extend step's rollback; the error below for it was unreachable.
        // Rule 10 is the extend step's too.
        if (entry == std::end(kCatalogue) || isExtendRule(number))
          return emitError(UnknownLoc::get(context))
                 << "block-fuse: rule " << number
                 << (isExtendRule(number)
                         ? Twine(" (") + entry->name +
                               ") runs in the extend step, not in `order`"
                         : Twine(" does not exist (rules are 1 to ") +
                               Twine(kNumRules) +
                               ", and 0 for those of `rules=FILE`)");
        entry->populate(patterns);
        if (number == 4 && divideAfterRounding)
          populateDivideAfterRoundingPatterns(patterns);
        else if (number == 4 && divideAfterBF16Rounding)
          populateDivideAfterBF16RoundingPatterns(patterns);
        if (number == 8 && roundDotOperands)
          populateRoundDotOperandsPatterns(patterns);
      }
      nameGeneratedPatterns(patterns);
      mainRootKinds.push_back(getRootKinds(patterns));
      mainRules.push_back(
          {number, FrozenRewritePatternSet(std::move(patterns))});
    }
    RewritePatternSet replication(context);
    populateReplicationPatterns(replication);
    nameGeneratedPatterns(replication);
    extendRootKinds = getRootKinds(replication);
    extendRule = FrozenRewritePatternSet(std::move(replication));
    RewritePatternSet renaming(context);
    populateReplicationPatterns(renaming,
                                ReplicationOptions{/*renameReducedAxes=*/true});
    nameGeneratedPatterns(renaming);
    extendRenamingRule = FrozenRewritePatternSet(std::move(renaming));
    RewritePatternSet untying(context);
    populateAxisUntyingPatterns(untying);
    nameGeneratedPatterns(untying);
    untyingRootKinds = getRootKinds(untying);
    extendUntyingRule = FrozenRewritePatternSet(std::move(untying));
    return success();
  }

  /// Tries rule `number` (its patterns' applicator `applicator`, the op
  /// kinds they can match `rootKinds`) at `op`. On a rewrite, counts it,
  /// prints the trace line and settles the worklist.
  bool tryRuleAt(unsigned number, PatternApplicator &applicator,
                 const std::optional<llvm::DenseSet<OperationName>> &rootKinds,
                 Operation *op, FusionRewriter &rewriter) {
    if (rootKinds && !rootKinds->contains(op->getName()))
      return false;
    rewriter.clearRecord();
    std::string patternName;
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    LogicalResult result = applicator.matchAndRewrite(
        op, rewriter, /*canApply=*/{}, /*onFailure=*/{},
        [&](const Pattern &pattern) {
          patternName = pattern.getDebugName().str();
          return success();
        });
    if (failed(result))
      return false;
    ++steps;
    ++applications[number];
    if (trace) {
      // PDL patterns have no debug name: their rewrite recorded it.
      if (patternName.empty())
        patternName = rewriter.getRecordedPatternName().str();
      llvm::errs() << "step " << steps << ": rule " << number << " at "
                   << describeLocation(loc) << ": " << patternName;
      if (!rewriter.getDescription().empty())
        llvm::errs() << ": " << rewriter.getDescription();
      llvm::errs() << "\n";
    }
    worklist->settle();
    return true;
  }

  /// Applies the first rule of `rules` (in order) that matches an op of
  /// `program` (breadth-first). Returns false when none does.
  bool applyOnce(ProgramOp program, FusionRewriter &rewriter) {
    for (auto [rule, applicator, rootKinds] :
         llvm::zip(mainRules, mainApplicators, mainRootKinds)) {
      unsigned number = rule.first;
      // The program itself is always tried; then the rule's worklist, whose
      // front is the first op breadth-first that the rule may match.
      if (tryRuleAt(number, *applicator, rootKinds, program, rewriter))
        return true;
      while (Operation *op = worklist->front(number)) {
        if (tryRuleAt(number, *applicator, rootKinds, op, rewriter))
          return true;
        worklist->popFront(number);
      }
    }
    return false;
  }

  /// Runs the main loop to a fixed point. Fails after max-steps rewrites.
  LogicalResult runMainLoop(ProgramOp program, FusionRewriter &rewriter) {
    while (applyOnce(program, rewriter))
      if (steps > maxSteps)
        return program.emitError()
               << "block-fuse did not reach a fixed point after "
               // Fix: streaming the option itself printed nothing.
               << static_cast<unsigned>(maxSteps) << " rewrites";
    return success();
  }

  /// For `explain`: at a fixed point of the main loop, tries every rule of
  /// the main loop, in order, at every op of `program` (breadth-first) and
  /// prints why its patterns refused, one line per reason:
  ///
  ///   explain: rule 9 (reduce-reduce fusion) at a.mlir:31:12 (block.reduce):
  ///     fuse-reduces: <reason>
  ///
  /// At a fixed point no rule matches, so nothing is rewritten.
  void explainFixedPoint(ProgramOp program, FusionRewriter &rewriter,
                         FailureReasons &reasons,
                         ArrayRef<unsigned> applicationsBefore) {
    // First what did apply (the rewrites kept), as the pass statistics
    // count them; LLVM built without statistics (a release build, as
    // Debian's) leaves those at zero.
    llvm::errs() << "explain: @" << program.getSymName() << ": applied";
    bool any = false;
    for (unsigned number = 0; number <= kNumRules; ++number)
      if (unsigned count = applications[number] - applicationsBefore[number]) {
        llvm::errs() << (any ? ", " : " ") << "rule " << number << " x"
                     << count;
        any = true;
      }
    llvm::errs() << (any ? "\n" : " nothing\n");
    BreadthFirstOrder order;
    order.update(program);
    for (auto [rule, applicator] : llvm::zip(mainRules, mainApplicators)) {
      unsigned number = rule.first;
      for (size_t position = 0;; ++position) {
        Operation *op = order.at(position);
        if (!op)
          break;
        // Reasons from PDL constraints come before any pattern is named.
        reasons.collect("");
        rewriter.setInsertionPoint(op);
        LogicalResult result = applicator->matchAndRewrite(
            op, rewriter, [&](const Pattern &pattern) {
              reasons.collect(pattern.getDebugName());
              return true;
            });
        reasons.stop();
        assert(failed(result) && "a rule matched at a fixed point");
        (void)result;
        // A pattern refusing the same way twice (two loads of one
        // producer) says so once.
        auto taken = reasons.take();
        for (auto [index, entry] : llvm::enumerate(taken)) {
          auto &[pattern, reason] = entry;
          if (index > 0 && taken[index - 1] == entry)
            continue;
          llvm::errs() << "explain: rule " << number << " ("
                       << getRuleName(number) << ") at "
                       << describeLocation(op->getLoc()) << " ("
                       << op->getName() << "): ";
          if (!pattern.empty())
            llvm::errs() << pattern << ": ";
          llvm::errs() << reason << "\n";
        }
      }
    }
  }

  /// Applies rule 10 (axis untying) at the first top-level map where it
  /// applies, then the main loop, until it applies nowhere. `lastKept` is
  /// the state before (the extend step's last kept state); a copy goes to
  /// `snapshots`, when given, if rule 10 applied.
  LogicalResult
  untieMaterialisedOperands(ProgramOp program, FusionRewriter &rewriter,
                            PatternApplicator &applicator,
                            ProgramShadow &lastKept,
                            SmallVectorImpl<OwningOpRef<ProgramOp>> *snapshots) {
    for (bool first = true;; first = false) {
      bool applied = false;
      for (MapOp map : llvm::to_vector(program.getOps<MapOp>()))
        if ((applied = tryRuleAt(kUntyingRule, applicator, untyingRootKinds,
                                 map, rewriter)))
          break;
      if (!applied)
        return success();
      if (first && snapshots)
        snapshots->push_back(lastKept.copy());
      if (failed(runMainLoop(program, rewriter)))
        return failure();
    }
  }

  /// The program's estimated time on the target, with the program's block
  /// sizes (or 128): what the extend step judges a try by. The sum of the
  /// kernels' terms in program order, as estimateSeconds adds them; a
  /// kernel's term is computed again only after a rewrite changed it.
  double score(ProgramOp program) {
    double total = 0;
    for (MapOp map : program.getOps<MapOp>()) {
      auto [it, inserted] = kernelSeconds.try_emplace(map);
      if (inserted)
        it->second = estimateKernelSeconds(program, map, kJudgedBlockSize,
                                           judgedTarget);
      total += it->second;
    }
    return total;
  }

  /// Forgets the cached terms of the kernels in `changes`.
  void invalidateScores(const FusionWorklist::Changes &changes) {
    for (Operation *op : changes.erased)
      kernelSeconds.erase(op);
    for (Operation *op : changes.changed)
      kernelSeconds.erase(op);
  }

  void runOnOperation() override {
    FusionWorklist ruleWorklist(llvm::map_to_vector(
        mainRules, [](const auto &rule) { return rule.first; }));
    worklist = &ruleWorklist;
    // One applicator per rule set for the whole run: building one costs a
    // sort of its patterns and, for PDL, the bytecode's mutable state.
    mainApplicators.clear();
    for (auto &[number, patterns] : mainRules) {
      mainApplicators.push_back(std::make_shared<PatternApplicator>(patterns));
      mainApplicators.back()->applyDefaultCostModel();
    }
    PatternApplicator plainApplicator(extendRule);
    plainApplicator.applyDefaultCostModel();
    PatternApplicator renamingApplicator(extendRenamingRule);
    renamingApplicator.applyDefaultCostModel();
    PatternApplicator untyingApplicator(extendUntyingRule);
    untyingApplicator.applyDefaultCostModel();
    // The extend step's phases of replication, each from the first
    // candidate: producers whose bodies the consumer can run as they are,
    // then also producers whose reduces iterate an axis the consumer
    // iterates (ReplicationOptions::renameReducedAxes).
    PatternApplicator *const phases[] = {&plainApplicator,
                                         &renamingApplicator};
    FusionRewriter rewriter(&getContext());
    FailureReasons reasons(worklist);
    rewriter.setListener(&reasons);
    applications.fill(0);
    for (ProgramOp program :
         llvm::to_vector(getOperation().getOps<ProgramOp>())) {
      worklist->reset(program, /*pending=*/true);
      std::array<unsigned, kNumRules + 1> applicationsAtStart = applications;
      // The unfused program is the first snapshot: block-select falls back
      // to it when no fused form fits the target's local memory.
      SmallVector<OwningOpRef<ProgramOp>> snapshots;
      if (keepSnapshots)
        snapshots.push_back(program.clone());
      if (failed(runMainLoop(program, rewriter)))
        return signalPassFailure();
      // The extend step: at the first op (breadth-first) where rule 6
      // applies (replication into a map, or into a reduce of a producer
      // rule 3's profitability refuses), apply it, re-run the main loop, and keep the result
      // only when the estimated time on the target drops; otherwise go back
      // to the last kept state and try the next op. Time, not bytes: a
      // LayerNorm's statistics recomputed per block of output columns read
      // X again but save a launch and a round trip (3.40 ms in three
      // kernels, 0.55 ms in one, LayerNorm + matmul M16 K4096 N4096 on an
      // H100, docs/performance.md). The search goes on from the same
      // position after a kept step (going back would make the extend step
      // quadratic in the number of candidates); only the ops of the kernels
      // the step changed that it had passed are tried again.
      // The last kept state is a shadow copy that follows the program unit
      // by unit: a try copies and restores only the kernels it changed, and
      // the estimate is recomputed only for those kernels.
      kernelSeconds.clear();
      size_t index = 0;
      std::optional<ProgramShadow> shadow;
      double before = 0;
      BreadthFirstOrder candidates;
      if (extend) {
        (void)worklist->takeChanges();
        shadow.emplace(program);
        before = score(program);
        candidates.update(program);
      }
      // Positions before `index` to try again first, ascending: the ops of
      // the units that a kept step changed. A replication there may apply
      // now (an RMSNorm's statistics become loads of the matmul's own map
      // once the normalisation was replicated into its reduce). A rolled
      // back try restores the order, so positions stay valid until the
      // next kept step recomputes them.
      std::deque<size_t> retry;
      size_t phase = 0;
      while (extend) {
        unsigned stepsBefore = steps;
        bool retrying = !retry.empty();
        size_t position = retrying ? retry.front() : index;
        auto advance = [&] {
          if (retrying)
            retry.pop_front();
          else
            ++index;
        };
        Operation *candidate = candidates.at(position);
        if (!candidate && phase + 1 < std::size(phases)) {
          ++phase;
          index = 0;
          retry.clear();
          continue;
        }
        if (!candidate)
          break;
        std::array<unsigned, kNumRules + 1> applicationsBefore = applications;
        if (!tryRuleAt(kReplicationRule, *phases[phase], extendRootKinds,
                       candidate, rewriter)) {
          advance();
          continue;
        }
        if (failed(runMainLoop(program, rewriter)))
          return signalPassFailure();
        FusionWorklist::Changes changes = worklist->takeChanges();
        invalidateScores(changes);
        double after = score(program);
        if (after < before) {
          if (keepSnapshots)
            snapshots.push_back(shadow->copy());
          shadow->sync(program, changes);
          before = after;
          // The units still to try again, and the ones this step changed.
          // The search goes on from the same position.
          if (retrying)
            retry.pop_front();
          llvm::SetVector<Operation *> again;
          for (size_t pending : retry)
            again.insert(candidates.unitAt(pending));
          for (Operation *unit : changes.erased)
            again.remove(unit);
          again.insert(changes.changed.begin(), changes.changed.end());
          for (Operation *unit : changes.erased)
            candidates.forget(unit);
          for (Operation *unit : changes.changed)
            candidates.forget(unit);
          candidates.update(program);
          SmallVector<size_t> positions;
          for (Operation *unit : again)
            candidates.collectPositions(unit, index, positions);
          llvm::sort(positions);
          positions.erase(llvm::unique(positions), positions.end());
          retry.assign(positions.begin(), positions.end());
          continue;
        }
        if (trace)
          llvm::errs() << "rolled back steps " << stepsBefore + 1 << " to "
                       << steps << ": replication did not lower the "
                       << "estimated time on " << target << " ("
                       << llvm::format("%.3g", after * 1e6)
                       << " us, not below "
                       << llvm::format("%.3g", before * 1e6)
                       << " us)\n";
        steps = stepsBefore;
        applications = applicationsBefore;
        // The last kept state was a fixed point of the main loop: the units
        // put back are on no rule's list.
        for (Operation *unit : changes.erased)
          candidates.forget(unit);
        for (Operation *unit : changes.changed)
          candidates.forget(unit);
        program = shadow->restore(program, changes, *worklist,
                                  [&](Operation *unit) {
                                    kernelSeconds.erase(unit);
                                    candidates.forget(unit);
                                  });
        candidates.update(program);
        advance();
      }
      // Then rule 10 at the operands replication left materialised, each
      // followed by the main loop (which fuses the untied kernels into a
      // row kernel). Not judged here: the judged blocks of 128 rows are no
      // whole-row kernel's (block-select gives it a few rows per block; at
      // 128, LayerNorm + matmul M2048's row kernel is 16 blocks on 132
      // SMs). Its fewer bytes and launches compete with the state before
      // it, a snapshot, in block-select, at the blocks block-select
      // chooses for each.
      if (extend && failed(untieMaterialisedOperands(
                        program, rewriter, untyingApplicator, *shadow,
                        keepSnapshots ? &snapshots : nullptr)))
        return signalPassFailure();
      if (explain) {
        rewriter.setExplaining(true);
        explainFixedPoint(program, rewriter, reasons, applicationsAtStart);
        rewriter.setExplaining(false);
      }
      yieldRepeatedResultsSeparately(program, rewriter);
      // The states before each kept replication compete with the result in
      // block-select, whose roofline also varies the block sizes.
      rewriter.setInsertionPointAfter(program);
      for (auto [number, snapshot] : llvm::enumerate(snapshots)) {
        auto copy = cast<ProgramOp>(rewriter.clone(**snapshot));
        yieldRepeatedResultsSeparately(copy, rewriter);
        copy.setSymName((program.getSymName() + "_snapshot" +
                         Twine(number + 1))
                            .str());
        copy->setAttr("block.snapshot_of", program.getSymNameAttr());
        rewriter.setInsertionPointAfter(copy);
      }
    }
    Statistic *perRule[] = {nullptr,
                            &rule1Applications,
                            &rule2Applications,
                            &rule3Applications,
                            &rule4Applications,
                            &rule5Applications,
                            &rule6Applications,
                            &rule7Applications,
                            &rule8Applications,
                            &rule9Applications,
                            &rule10Applications};
    for (unsigned number = 1; number <= kNumRules; ++number)
      *perRule[number] += applications[number];
  }

  /// Rewrites kept, per rule number (0: the user's).
  std::array<unsigned, kNumRules + 1> applications;
  /// The per-rule worklists of the running pass (runOnOperation owns them).
  FusionWorklist *worklist = nullptr;
  llvm::DenseMap<Operation *, double> kernelSeconds;
  SmallVector<std::pair<unsigned, FrozenRewritePatternSet>> mainRules;
  /// The op kinds each of `mainRules` can match at (none: any), and
  /// `extendRule`'s.
  SmallVector<std::optional<llvm::DenseSet<OperationName>>> mainRootKinds;
  std::optional<llvm::DenseSet<OperationName>> extendRootKinds;
  /// The applicators of `mainRules` while the pass runs.
  /// (Shared pointers only so the pass stays copyable: each run makes its
  /// own.)
  SmallVector<std::shared_ptr<PatternApplicator>> mainApplicators;
  /// Rule 6 for the extend step's first phase, and for its second
  /// (ReplicationOptions::renameReducedAxes).
  FrozenRewritePatternSet extendRule, extendRenamingRule;
  /// Rule 10 for the extend step's third phase, and the op kinds it can
  /// match at.
  FrozenRewritePatternSet extendUntyingRule;
  std::optional<llvm::DenseSet<OperationName>> untyingRootKinds;
  unsigned steps = 0;
  const TargetDescription *targetDescription = nullptr;
  /// The target the extend step judges by: without the serial work.
  TargetDescription judgedTarget;
};
} // namespace
