//===- QuadTranspose.cpp - 16-byte rows from mma fragments ----------------===//

#include "QuadTranspose.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

namespace {

/// `values[index]` for an i32 `index` in [0, 4), as a chain of selects
/// (registers are not indexable at run time).
Value selectByIndex(OpBuilder &builder, Location loc,
                    ArrayRef<Value> isIndex, ArrayRef<Value> values) {
  Value result = values[3];
  for (int64_t i = 2; i >= 0; --i)
    result = arith::SelectOp::create(builder, loc, isIndex[i], values[i],
                                     result);
  return result;
}

} // namespace

SmallVector<Value, 4> blockbuster::transposeQuad(OpBuilder &builder,
                                                 Location loc,
                                                 Value laneInQuad,
                                                 ArrayRef<Value> pairs) {
  assert(pairs.size() == 4 && "a quad exchanges four values");
  Type i32 = builder.getI32Type();
  SmallVector<Value, 4> isIndex;
  for (int64_t i = 0; i < 4; ++i)
    isIndex.push_back(arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, laneInQuad,
        arith::ConstantIntOp::create(builder, loc, i32, i)));
  // Round r: lane q sends pairs[q ^ r] to lane q ^ r and so receives
  // received[r] = (lane q ^ r)'s pairs[q]. Round 0 is the lane's own.
  SmallVector<Value, 4> received;
  for (int64_t r = 0; r < 4; ++r) {
    SmallVector<Value, 4> sent;
    for (int64_t q = 0; q < 4; ++q)
      sent.push_back(pairs[q ^ r]);
    Value value = selectByIndex(builder, loc, isIndex, sent);
    if (r == 0) {
      received.push_back(value);
      continue;
    }
    Value offset = arith::ConstantIntOp::create(builder, loc, i32, r);
    Value width = arith::ConstantIntOp::create(builder, loc, i32, 32);
    received.push_back(gpu::ShuffleOp::create(builder, loc, value, offset,
                                              width, gpu::ShuffleMode::XOR)
                           .getShuffleResult());
  }
  // Lane p's value arrived in round p ^ q.
  SmallVector<Value, 4> result;
  for (int64_t p = 0; p < 4; ++p) {
    SmallVector<Value, 4> byLane;
    for (int64_t q = 0; q < 4; ++q)
      byLane.push_back(received[p ^ q]);
    result.push_back(selectByIndex(builder, loc, isIndex, byLane));
  }
  return result;
}
