//===- BF16Widening.cpp - bf16 to f32 as one integer op -------------------===//

#include "BF16Widening.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

Value blockbuster::widenBF16Half(OpBuilder &b, Location loc, Value word,
                                 int64_t e) {
  // Element 0 is the low half of the little-endian pair.
  Value bits =
      e == 0 ? arith::ShLIOp::create(
                   b, loc, word,
                   arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(16)))
                   .getResult()
             : arith::AndIOp::create(
                   b, loc, word,
                   arith::ConstantOp::create(
                       b, loc, b.getI32IntegerAttr(int32_t(0xffff0000u))))
                   .getResult();
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}
