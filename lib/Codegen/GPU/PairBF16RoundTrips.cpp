//===- PairBF16RoundTrips.cpp - Two bf16 roundings, one conversion -------===//
//
// `arith.extf(arith.truncf(x))` of f32 through bf16 lowers to one
// `cvt.rn.bf16.f32` and one `cvt.f32.bf16` per element; two of them share
// one `cvt.rn.bf16x2.f32`, then a shift and a mask (the pass's description
// in Passes.td says when and why).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "BF16Widening.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUPAIRBF16ROUNDTRIPS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

/// The trunc of `extend` if `extend` widens an f32 scalar rounded to bf16 by
/// a trunc that nothing else reads.
static arith::TruncFOp getRoundTrip(arith::ExtFOp extend) {
  auto trunc = extend.getIn().getDefiningOp<arith::TruncFOp>();
  if (!trunc || !trunc.getType().isBF16() || !extend.getType().isF32() ||
      !trunc.getIn().getType().isF32() || !trunc->hasOneUse())
    return {};
  return trunc;
}

/// Whether every user of `first` is in its block after `second`.
static bool usedOnlyAfter(arith::ExtFOp first, arith::ExtFOp second) {
  return llvm::all_of(first->getUsers(), [&](Operation *user) {
    return user->getBlock() == second->getBlock() &&
           second->isBeforeInBlock(user);
  });
}

/// Replaces the round trips `first` and `second` (in this order in their
/// block) by the halves of one packed conversion, placed after `second`.
static void pairRoundTrips(arith::ExtFOp first, arith::ExtFOp second) {
  OpBuilder b(second->getContext());
  b.setInsertionPointAfter(second);
  Location loc = second.getLoc();
  Value packed = vector::FromElementsOp::create(
      b, loc, VectorType::get({2}, b.getBF16Type()),
      ValueRange{first.getIn(), second.getIn()});
  Value word = vector::ExtractOp::create(
      b, loc,
      vector::BitCastOp::create(b, loc, VectorType::get({1}, b.getI32Type()),
                                packed),
      ArrayRef<int64_t>{0});
  first.replaceAllUsesWith(blockbuster::widenBF16Half(b, loc, word, 0));
  second.replaceAllUsesWith(blockbuster::widenBF16Half(b, loc, word, 1));
  first.erase();
  second.erase();
}

static void pairRoundTripsInBlock(Block &block) {
  SmallVector<arith::ExtFOp> roundTrips;
  for (Operation &op : block)
    if (auto extend = dyn_cast<arith::ExtFOp>(op); extend && getRoundTrip(extend))
      roundTrips.push_back(extend);
  for (size_t i = 0; i + 1 < roundTrips.size();) {
    if (!usedOnlyAfter(roundTrips[i], roundTrips[i + 1])) {
      ++i;
      continue;
    }
    pairRoundTrips(roundTrips[i], roundTrips[i + 1]);
    i += 2;
  }
}

namespace {

struct GPUPairBF16RoundTrips
    : blockbuster::impl::GPUPairBF16RoundTripsBase<GPUPairBF16RoundTrips> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      pairRoundTripsInBlock(*block);
  }
};

} // namespace
