//===- SinkPrologueStatistics.cpp - RMSNorm's statistics into the GEMM ----===//
//
// RMSNorm + matmul fuses into two kernels at large shapes: the sum of
// squares of X's rows into a vector of M (a row kernel that reads X once),
// then the GEMM block that normalises its A tile with it. With the row
// factor in the accumulator (gpu-warpgroup-matmul's register-A prologue),
// the GEMM block needs the sum only after its mainloop, which holds every
// element of the block's rows of X in registers on the way: the sum can be
// accumulated there for the price of one multiply-add per element, and the
// statistics kernel (and its read of X, 31 us of 0.414 ms at M8192 K4096
// N4096 on the H100) goes.
//
// This pass moves the statistics kernel's work into each GEMM block that
// reads it, as the k loop of a block that fusion makes when it puts the
// statistics in the GEMM kernel itself (the same ops, per block: exact);
// gpu-warpgroup-matmul then folds that loop into the mainloop
// (PrologueStatistics.h). It runs before gpu-row-kernels, which would
// lower the statistics kernel. Only where that fold applies: a block of
// 128 rows (two consumer warpgroups with A in registers, or on a grid
// smaller than the SMs one warpgroup too, whose mainloop takes the sums
// from its A registers or the slots it rewrites), the prologue's only row
// input the statistics (a view of the vector, or the whole vector where
// the grid has one row block), used in the row factor alone, and nothing
// else reading them.
//
// Measured on the H100 it does not pay on large grids (docs/performance.md,
// session 11): the GEMM kernel's consumer warps are bound by the
// instructions they issue per k step, and the sums add 64 per step and
// warp (42 us on the M8192 GEMM kernel against the statistics kernel's
// 30.5 us). So for those the GPU pipeline runs this pass only with
// `wgmma-prologue-statistics`, off by default. Grids smaller than the SMs
// (M128 to a few hundred rows, split across their k steps) are bound by
// the weights' stream, not by issue, and there the statistics kernel is a
// launch and a pass of its own (`small-grids`, on by default: one-warpgroup
// blocks too, whose slot rewrite accumulates the sums; docs/performance.md,
// session 15).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "PrologueStatistics.h"
#include "TileBounds.h"
#include "WarpgroupPrologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpu-sink-prologue-statistics"

namespace blockbuster {
#define GEN_PASS_DEF_GPUSINKPROLOGUESTATISTICS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;
using namespace blockbuster;

namespace {

// The blocks of gpu-warpgroup-matmul: 128 rows, and 256 accumulator
// columns between the products for two warpgroups (register A), 128 for
// one (the slot rewritten).
constexpr int64_t kTileM = 128, kAccumulatorColumns = 256,
                  kOneWarpgroupColumns = 128;

/// Which blocks take the statistics (the pass's options).
struct SinkTargets {
  bool registerBlocks, smallGrids;
  int64_t sms;
};

LogicalResult fail(Operation *op, const Twine &reason) {
  LLVM_DEBUG(llvm::dbgs() << "statistics not sunk: " << reason << ": " << *op
                          << "\n");
  return failure();
}

/// A statistics kernel and the GEMM block that reads what it writes.
struct SinkableStatistics {
  // The statistics kernel: a grid over row blocks that accumulates the sum
  // of squares of X's rows into `tile` and copies it to `view` of
  // `buffer`.
  scf::ForallOp kernel;
  memref::AllocOp tile;
  memref::CopyOp copy;
  // The GEMM block's view of `buffer`, the prologue's row input.
  memref::SubViewOp gemmView;
  memref::AllocOp buffer;
  // The GEMM block's induction variable that stands for the kernel's.
  Value gemmRow;
  OpOperand *rowInput;
};

/// The precondition, for the GEMM block of `dot` (whose A tile its
/// prologue computes in `loop`).
FailureOr<SinkableStatistics> matchSinkable(linalg::GenericOp dot,
                                            scf::ForOp loop,
                                            const SinkTargets &targets) {
  auto gemm = dyn_cast<scf::ForallOp>(loop->getParentOp());
  if (!gemm || !gemm.getMapping())
    return fail(dot, "not in the k loop of a block grid");
  // The other dots of the loop that read the same A tile (the FFN's).
  SmallVector<Operation *> siblings;
  Value a = dot.getDpsInputs()[0];
  for (Operation *user : a.getUsers())
    if (user != dot.getOperation() && isa<linalg::GenericOp>(user) &&
        user->getParentOp() == loop &&
        cast<linalg::GenericOp>(user).getDpsInputs()[0] == a &&
        cast<linalg::GenericOp>(user).getNumReductionLoops() == 1)
      siblings.push_back(user);
  FailureOr<WarpgroupPrologue> prologue =
      matchWarpgroupPrologue(dot, loop, siblings);
  if (failed(prologue))
    return fail(dot, "no warpgroup prologue");
  // Two warpgroups, so that gpu-warpgroup-matmul takes register A; or on
  // a grid smaller than the SMs (which it splits where it can), one or
  // two.
  std::optional<int64_t> rows = constantUpperBound(dot.getDpsInits()[0], 0);
  std::optional<int64_t> columns =
      constantUpperBound(dot.getDpsInits()[0], 1);
  if (rows != kTileM || !columns)
    return fail(dot, "not a block of 128 rows");
  int64_t accColumns = *columns * int64_t(1 + siblings.size());
  int64_t blocks = 1;
  for (int64_t extent : gemm.getStaticUpperBound())
    blocks = ShapedType::isDynamic(extent) ? targets.sms : blocks * extent;
  bool small = targets.smallGrids && blocks < targets.sms &&
               (accColumns == kAccumulatorColumns ||
                accColumns == kOneWarpgroupColumns);
  if (!small &&
      !(targets.registerBlocks && accColumns == kAccumulatorColumns))
    return fail(dot, "not a block of two consumer warpgroups, nor of a grid "
                     "smaller than the SMs");
  memref::SubViewOp raw = prologue->raw;
  if (prologue->rowInputs.size() != 1 ||
      !raw.getSourceType().getElementType().isBF16() ||
      !WarpgroupPrologueLowering::leavesRowInputToAccumulator(*prologue))
    return fail(dot, "the prologue's row input is not its row factor's "
                     "alone");

  SinkableStatistics s;
  s.rowInput = prologue->rowInputs.front();
  // The row input is the block's view of a buffer of the host, or where
  // the grid has one row block (M128), the whole buffer.
  s.gemmView = s.rowInput->get().getDefiningOp<memref::SubViewOp>();
  if (s.gemmView &&
      (!s.gemmView->hasOneUse() || s.gemmView->getParentOp() != gemm))
    return fail(dot, "the row input is not a view of the block's own");
  Value bufferValue = s.gemmView ? s.gemmView.getSource() : s.rowInput->get();
  s.buffer = bufferValue.getDefiningOp<memref::AllocOp>();
  if (!s.buffer || s.buffer->getBlock() != gemm->getBlock())
    return fail(dot, "the row input is not a buffer of the host");
  // The buffer: the GEMM block's view (or its prologue), and one view that
  // the statistics kernel copies its tile to (or the copy itself).
  Operation *gemmUser =
      s.gemmView ? s.gemmView.getOperation() : s.rowInput->getOwner();
  Operation *kernelUser = nullptr;
  for (Operation *user : s.buffer->getUsers()) {
    if (user == gemmUser)
      continue;
    if (kernelUser || !isa<memref::SubViewOp, memref::CopyOp>(user))
      return fail(user, "the statistics have another user");
    kernelUser = user;
  }
  auto kernelView = dyn_cast_if_present<memref::SubViewOp>(kernelUser);
  if (!kernelUser || (kernelView && !kernelView->hasOneUse()) ||
      bool(kernelView) != bool(s.gemmView))
    return fail(s.buffer, "no kernel writes the statistics");
  s.copy = kernelView
               ? dyn_cast<memref::CopyOp>(*kernelView->getUsers().begin())
               : cast<memref::CopyOp>(kernelUser);
  s.kernel = dyn_cast<scf::ForallOp>(kernelUser->getParentOp());
  if (!s.copy ||
      s.copy.getTarget() !=
          (kernelView ? kernelView.getResult() : bufferValue) ||
      !s.kernel ||
      s.copy->getParentOp() != s.kernel ||
      s.kernel->getBlock() != gemm->getBlock() ||
      !s.kernel->isBeforeInBlock(gemm) || s.kernel.getRank() != 1 ||
      !s.kernel.getMapping())
    return fail(s.buffer, "the statistics are not one grid's copy");
  s.tile = s.copy.getSource().getDefiningOp<memref::AllocOp>();
  if (!s.tile || s.tile->getParentOp() != s.kernel)
    return fail(s.copy, "the copy is not of a tile of the kernel");

  // The kernel's view of the buffer is the GEMM block's, where one of the
  // block's induction variables stands for the kernel's; a kernel that
  // writes the whole buffer is one block (its row 0).
  Value kernelRow = s.kernel.getInductionVar(0);
  if (!kernelView) {
    if (s.kernel.getStaticUpperBound()[0] != 1)
      return fail(s.kernel, "the whole statistics from more than one block");
  } else {
    for (Value iv : gemm.getInductionVars()) {
      OpFoldResult kernelOffset = kernelView.getMixedOffsets()[0],
                   gemmOffset = s.gemmView.getMixedOffsets()[0];
      DenseMap<Value, Value> equal = {{kernelRow, iv}};
      if (equivalentIndex(kernelOffset, gemmOffset, equal) &&
          equivalentIndex(kernelView.getMixedSizes()[0],
                          s.gemmView.getMixedSizes()[0], equal)) {
        s.gemmRow = iv;
        break;
      }
    }
    if (!s.gemmRow)
      return fail(kernelView, "the kernel's rows are not the block's");
  }

  // The kernel's work: the statistics loop of its tile (reading the
  // prologue's raw tile where the block's row stands for the kernel's),
  // index arithmetic, the view and the copy.
  DenseMap<Value, Value> equal;
  if (s.gemmRow)
    equal[kernelRow] = s.gemmRow;
  FailureOr<StatisticsLoop> accumulation =
      matchStatisticsLoop(s.tile, *prologue, loop, equal);
  if (failed(accumulation))
    return failure();
  for (Operation &op : s.kernel.getBody()->without_terminator())
    if (!isPure(&op) && &op != s.tile.getOperation() &&
        &op != accumulation->fill.getOperation() &&
        &op != accumulation->loop.getOperation() &&
        &op != s.copy.getOperation())
      return fail(&op, "the statistics kernel does more");
  for (Operation *user : s.tile->getUsers())
    if (user != accumulation->fill && user != s.copy &&
        user->getParentOp() != accumulation->loop)
      return fail(user, "the statistics tile has another user");
  return s;
}

/// The transformation: the kernel's body, but its copy, at the start of the
/// GEMM block (the kernel's row as the block's); the block's prologue
/// reads the tile; the kernel, the buffer and its views go.
void sink(RewriterBase &rewriter, SinkableStatistics &s) {
  auto gemm = s.rowInput->getOwner()->getParentOfType<scf::ForallOp>();
  rewriter.setInsertionPointToStart(gemm.getBody());
  IRMapping mapping;
  mapping.map(s.kernel.getInductionVar(0),
              s.gemmRow ? s.gemmRow
                        : arith::ConstantIndexOp::create(rewriter,
                                                         s.kernel.getLoc(), 0)
                              .getResult());
  for (Operation &op : s.kernel.getBody()->without_terminator()) {
    if (&op == s.copy.getOperation() ||
        &op == s.copy.getTarget().getDefiningOp())
      continue;
    rewriter.clone(op, mapping);
  }
  rewriter.modifyOpInPlace(s.rowInput->getOwner(), [&] {
    s.rowInput->set(mapping.lookup(s.tile.getResult()));
  });
  if (s.gemmView)
    rewriter.eraseOp(s.gemmView);
  rewriter.eraseOp(s.kernel);
  rewriter.eraseOp(s.buffer);
}

struct GPUSinkPrologueStatistics
    : blockbuster::impl::GPUSinkPrologueStatisticsBase<
          GPUSinkPrologueStatistics> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, scf::ForOp>> dots;
    getOperation().walk([&](linalg::GenericOp op) {
      auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
      if (loop && op.getNumLoops() == 3 && op.getNumReductionLoops() == 1 &&
          op.getNumDpsInputs() == 2)
        dots.push_back({op, loop});
    });
    IRRewriter rewriter(&getContext());
    for (auto [dot, loop] : dots) {
      // A sibling dot of a block already changed is not matched again:
      // its row input is no longer a view of a host buffer.
      FailureOr<SinkableStatistics> s =
          matchSinkable(dot, loop, {registerBlocks, smallGrids, sms});
      if (succeeded(s))
        sink(rewriter, *s);
    }
  }
};

} // namespace
