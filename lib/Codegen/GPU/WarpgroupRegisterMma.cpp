//===- WarpgroupRegisterMma.cpp - wgmma on lists of registers -------------===//

#include "WarpgroupRegisterMma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace blockbuster {

namespace {

LLVM::LLVMStructType accumulatorType(OpBuilder &b, size_t size) {
  return LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(size, b.getF32Type()));
}

SmallVector<Value> unpack(OpBuilder &b, Location loc, Value packed,
                          size_t size) {
  SmallVector<Value> values;
  for (size_t i = 0; i < size; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, packed, i));
  return values;
}

} // namespace

/// wgmma as inline PTX: the accumulator values in and out as separate
/// operands (nvvm.wgmma.mma_async takes and returns one struct, whose
/// llvm.mlir.undef a canonicalizer would hoist out of the kernel to the
/// host function). `a` is one i64 descriptor or four i32 registers.
static SmallVector<Value> emitWgmma(OpBuilder &b, Location loc,
                                    ArrayRef<Value> acc, ArrayRef<Value> a,
                                    Value descB, Type elementType,
                                    bool transposeB) {
  size_t n = acc.size();
  // An accumulator of +0.0 constants is not read (scale-d false): no moves
  // of zeros into the registers between wgmma.fence and the wgmma, which
  // would make ptxas serialize the warpgroup's wgmmas.
  bool zero = llvm::all_of(acc, [](Value v) {
    FloatAttr value;
    return matchPattern(v, m_Constant(&value)) && value.getValue().isPosZero();
  });
  // Operands: the n accumulator outputs $0.., A (registers or descriptor),
  // B's descriptor, scale-d (a predicate in PTX: set from a register
  // holding 1 where the accumulator is read), then the accumulator inputs
  // tied to the outputs.
  std::string registers;
  for (size_t i = 0; i < n; ++i)
    registers += (i ? ", $" : "$") + std::to_string(i);
  std::string aOperand;
  if (a.size() == 1) {
    aOperand = "$" + std::to_string(n);
  } else {
    for (size_t i = 0; i < a.size(); ++i)
      aOperand += (i ? ", $" : "{$") + std::to_string(n + i);
    aOperand += "}";
  }
  size_t descIndex = n + a.size(), scaleIndex = descIndex + 1;
  // imm-scale-a, imm-scale-b, then (descriptor A only) imm-trans-a, and
  // imm-trans-b. tf32 (f32 elements, read as tf32: k8) has no transpose
  // immediates: both operands are K-major.
  bool tf32 = elementType.isF32();
  assert(!(tf32 && transposeB) && "tf32 wgmma reads B K-major only");
  std::string immediates =
      tf32 ? "1, 1"
           : std::string(a.size() == 1 ? "1, 1, 0, " : "1, 1, ") +
                 (transposeB ? "1" : "0");
  std::string asmString = llvm::formatv(
      "{{\n.reg .pred p;\nsetp.ne.b32 p, ${0}, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n{1}k{7}.f32.{2}.{2} {{{3}}, {4}, "
      "${5}, p, {6};\n}",
      scaleIndex, 2 * n,
      tf32 ? "tf32" : elementType.isBF16() ? "bf16" : "f16", registers,
      aOperand, descIndex, immediates, tf32 ? 8 : 16);
  std::string constraints;
  for (size_t i = 0; i < n; ++i)
    constraints += "=f,";
  constraints += a.size() == 1 ? "l" : "r,r,r,r";
  constraints += ",l,r";
  if (!zero)
    for (size_t i = 0; i < n; ++i)
      constraints += "," + std::to_string(i);
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  operands.push_back(
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), zero ? 0 : 1));
  if (!zero)
    llvm::append_range(operands, acc);
  auto inlineAsm = LLVM::InlineAsmOp::create(
      b, loc, accumulatorType(b, n), operands, asmString, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return unpack(b, loc, inlineAsm.getResult(0), n);
}

SmallVector<Value> wgmmaSharedA(OpBuilder &b, Location loc, ArrayRef<Value> acc,
                                Value descA, Value descB, Type elementType,
                                bool transposeB) {
  return emitWgmma(b, loc, acc, descA, descB, elementType, transposeB);
}

SmallVector<Value> wgmmaRegisterA(OpBuilder &b, Location loc,
                                  ArrayRef<Value> acc, ArrayRef<Value> a,
                                  Value descB, Type elementType,
                                  bool transposeB) {
  assert(a.size() == 4 && "the A fragment is four 32-bit registers");
  return emitWgmma(b, loc, acc, a, descB, elementType, transposeB);
}

} // namespace blockbuster
