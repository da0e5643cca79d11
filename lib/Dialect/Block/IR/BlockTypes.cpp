//===- BlockTypes.cpp - Buffered and unbuffered types ---------------------===//

#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace blockbuster::block;

#define GET_TYPEDEF_CLASSES
#include "Blockbuster/Dialect/Block/IR/BlockOpsTypes.cpp.inc"

void BlockDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Blockbuster/Dialect/Block/IR/BlockOpsTypes.cpp.inc"
      >();
}

/// Element types a kernel can hold in memory.
static bool isStorableElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

//===----------------------------------------------------------------------===//
// ArrayType
//===----------------------------------------------------------------------===//

Type ArrayType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<ArrayType>(parser.getContext(), shape, elementType);
}

void ArrayType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t extent : getShape())
    printer << extent << 'x';
  printer << getElementType() << '>';
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType) {
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (extent < 1)
      return emitError() << "array dimension " << dim << " has extent "
                         << extent << "; arrays have static positive extents";
  if (!isStorableElementType(elementType))
    return emitError() << "array element type " << elementType
                       << " is not supported (f16, bf16, f32, f64, i1, i8, "
                          "i16, i32, i64)";
  return success();
}

int64_t ArrayType::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : getShape())
    count *= extent;
  return count;
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<StringAttr> axes;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() -> ParseResult {
            std::string name;
            if (parser.parseKeywordOrString(&name))
              return failure();
            axes.push_back(StringAttr::get(parser.getContext(), name));
            return success();
          }) ||
      parser.parseComma() || parser.parseType(elementType) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<TileType>(parser.getContext(), axes, elementType);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getAxes(), printer, [&](StringAttr axis) {
    if (isBareAxisName(axis.getValue()))
      printer << axis.getValue();
    else
      printer.printString(axis.getValue());
  });
  printer << "], " << getElementType() << '>';
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> axes, Type elementType) {
  for (auto [index, axis] : llvm::enumerate(axes)) {
    if (!axis || axis.getValue().empty())
      return emitError() << "tile axis " << index << " has an empty name";
    if (llvm::is_contained(axes.take_front(index), axis))
      return emitError() << "tile names axis '" << axis.getValue()
                         << "' twice; each axis indexes one dimension";
  }
  // Index elements exist only in tiles: they hold global positions (iota).
  if (!isStorableElementType(elementType) && !elementType.isIndex())
    return emitError() << "tile element type " << elementType
                       << " is not supported (f16, bf16, f32, f64, i1, i8, "
                          "i16, i32, i64, index)";
  return success();
}

std::optional<unsigned> TileType::getAxisPosition(StringAttr axis) const {
  auto it = llvm::find(getAxes(), axis);
  if (it == getAxes().end())
    return std::nullopt;
  return std::distance(getAxes().begin(), it);
}

TileType TileType::withElementType(Type elementType) const {
  return TileType::get(getContext(), getAxes(), elementType);
}
