//===- BlockAttrs.cpp - Axes and enums ------------------------------------===//

#include "Blockbuster/Dialect/Block/IR/AxisUtils.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace blockbuster::block;

#include "Blockbuster/Dialect/Block/IR/BlockOpsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Blockbuster/Dialect/Block/IR/BlockOpsAttrs.cpp.inc"

void BlockDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Blockbuster/Dialect/Block/IR/BlockOpsAttrs.cpp.inc"
      >();
}

// Axis body: `NAME = EXTENT (tiled | whole) (block SIZE)?`.
AxisAttr AxisAttr::parseBody(AsmParser &parser) {
  std::string name;
  int64_t extent = 0;
  std::string kindName;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
      parser.parseInteger(extent))
    return {};
  kindLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&kindName))
    return {};
  std::optional<AxisKind> kind = symbolizeAxisKind(kindName);
  if (!kind) {
    parser.emitError(kindLoc) << "expected 'tiled' or 'whole' after the extent "
                                 "of axis '"
                              << name << "', got '" << kindName << "'";
    return {};
  }
  std::optional<int64_t> blockSize;
  if (succeeded(parser.parseOptionalKeyword("block"))) {
    int64_t size = 0;
    if (parser.parseInteger(size))
      return {};
    blockSize = size;
  }
  return parser.getChecked<AxisAttr>(
      parser.getContext(), StringAttr::get(parser.getContext(), name), extent,
      *kind, blockSize);
}

void AxisAttr::printBody(AsmPrinter &printer) const {
  if (isBareAxisName(getName().getValue()))
    printer << getName().getValue();
  else
    printer.printString(getName().getValue());
  printer << " = " << getExtent() << ' ' << stringifyAxisKind(getKind());
  if (getBlockSize())
    printer << " block " << *getBlockSize();
}

Attribute AxisAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  AxisAttr axis = parseBody(parser);
  if (!axis || parser.parseGreater())
    return {};
  return axis;
}

void AxisAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

LogicalResult AxisAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringAttr name, int64_t extent, AxisKind kind,
                               std::optional<int64_t> blockSize) {
  if (!name || name.getValue().empty())
    return emitError() << "axis has an empty name";
  if (extent < 1)
    return emitError() << "axis '" << name.getValue() << "' has extent "
                       << extent << "; extents are positive";
  if (blockSize && kind == AxisKind::Whole)
    return emitError() << "whole axis '" << name.getValue()
                       << "' has a block size; only tiled axes are blocked";
  if (blockSize && *blockSize < 1)
    return emitError() << "axis '" << name.getValue() << "' has block size "
                       << *blockSize << "; block sizes are positive";
  return success();
}
