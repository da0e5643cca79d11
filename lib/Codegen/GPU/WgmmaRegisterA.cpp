//===- WgmmaRegisterA.cpp - wgmma with its A operand in registers ---------===//
//
// The inline assembly of the register-A form of wgmma (WgmmaRegisterA.h).
//
//===----------------------------------------------------------------------===//

#include "WgmmaRegisterA.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace mlir;

Value blockbuster::createWgmmaRegisterA(OpBuilder &builder, Location loc,
                                        Value acc, ValueRange a, Value descB,
                                        Type elementType, bool transposeB) {
  auto accType = cast<LLVM::LLVMStructType>(acc.getType());
  int64_t registers = accType.getBody().size();
  assert(a.size() == 4 && "the A fragment of m64k16 is four registers");
  assert((elementType.isF16() || elementType.isBF16()) &&
         "wgmma's register A takes 16-bit floats here");
  int64_t n = 2 * registers;

  // Operands: the accumulator's registers as outputs $0 .. $(r - 1), tied
  // to the same registers as inputs $r .. $(2 r - 1) (LLVM's inline
  // assembly has no read-write operands), then A's four registers and B's
  // descriptor.
  SmallVector<Value> operands;
  for (int64_t i = 0; i < registers; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(builder, loc, acc, i));
  llvm::append_range(operands, a);
  operands.push_back(descB);

  std::string constraints, text;
  llvm::raw_string_ostream c(constraints), s(text);
  for (int64_t i = 0; i < registers; ++i)
    c << "=f,";
  for (int64_t i = 0; i < registers; ++i)
    c << i << ",";
  c << "r,r,r,r,l";

  // scale-d is a predicate operand: always 1 (D = A * B + D; the
  // accumulator starts as zeros). imm-scale-a and imm-scale-b 1 (no
  // negation); imm-trans-b 1 where B is N-major. The register form has no
  // imm-trans-a.
  StringRef type = elementType.isBF16() ? "bf16" : "f16";
  s << "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
    << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32." << type << "."
    << type << " {";
  for (int64_t i = 0; i < registers; ++i)
    s << (i ? ", " : "") << "$" << i;
  int64_t first = 2 * registers;
  s << "}, {$" << first << ", $" << first + 1 << ", $" << first + 2 << ", $"
    << first + 3 << "}, $" << first + 4 << ", p, 1, 1, "
    << (transposeB ? 1 : 0) << ";\n}\n";

  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, accType, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return asmOp.getRes();
}
