//===- GlobalAccess.cpp - Global memory by address, in inline PTX ---------===//

#include "GlobalAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value blockbuster::globalPointer(OpBuilder &b, Location loc, Value view,
                                 ValueRange indices) {
  MLIRContext *ctx = b.getContext();
  int64_t elementBytes =
      cast<MemRefType>(view.getType()).getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
  Value element = meta.getOffset();
  for (auto [i, index] : llvm::enumerate(indices))
    element = arith::AddIOp::create(
        b, loc, element,
        arith::MulIOp::create(b, loc, index, meta.getStrides()[i]));
  Value bytes = arith::MulIOp::create(
      b, loc, element, arith::ConstantIndexOp::create(b, loc, elementBytes));
  Value address = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, bytes));
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1),
      LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                               address));
}

void blockbuster::storeGlobalIf(OpBuilder &b, Location loc, Value predicate,
                                Value pointer, ValueRange words) {
  // $0 the predicate (as a 32-bit integer: inline PTX takes no i1), $1 the
  // address, the words after.
  std::string list;
  for (size_t i = 0; i < words.size(); ++i)
    list += (i ? ", $" : "$") + std::to_string(i + 2);
  std::string asmString =
      "{\n .reg .pred p;\n setp.ne.b32 p, $0, 0;\n @p st.global.v" +
      std::to_string(words.size()) + ".b32 [$1], {" + list + "};\n}";
  std::string constraints = "r,l";
  for (size_t i = 0; i < words.size(); ++i)
    constraints += ",r";
  SmallVector<Value> operands{
      arith::ExtUIOp::create(b, loc, b.getI32Type(), predicate), pointer};
  llvm::append_range(operands, words);
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, operands, asmString, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}
