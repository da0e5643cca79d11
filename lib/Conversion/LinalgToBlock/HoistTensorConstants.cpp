//===- HoistTensorConstants.cpp - Tensor constants to arguments -----------===//

#include "Blockbuster/Conversion/LinalgToBlock/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace blockbuster {
#define GEN_PASS_DEF_HOISTTENSORCONSTANTS
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

/// The key MLIR's printer writes for every resource whose blob it elides:
/// it names no particular value.
constexpr StringLiteral kElidedResourceKey = "__elided__";

/// The argument attributes of a hoisted constant: the marker, whose value is
/// the constant's `dense_resource` key when it has one. The key is what ties
/// the argument to its value outside the program: the blob in the file's
/// `dialect_resources`, or, for exports of `blockbuster.torch`, the name of
/// the module's parameter or buffer (docs/Artifact.md, "constant"). Equal
/// constants keep one argument each; they share the key.
DictionaryAttr getHoistedConstantAttrs(MLIRContext *context,
                                       ElementsAttr value) {
  Attribute marker = UnitAttr::get(context);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    StringRef key = resource.getRawHandle().getKey();
    if (key != kElidedResourceKey)
      marker = StringAttr::get(context, key);
  }
  return DictionaryAttr::get(
      context, {NamedAttribute(StringAttr::get(context,
                                               "blockbuster.hoisted_constant"),
                               marker)});
}

struct HoistTensorConstantsPass
    : public blockbuster::impl::HoistTensorConstantsBase<
          HoistTensorConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // A new argument would break the calls of a called function.
      if (!SymbolTable::symbolKnownUseEmpty(func, module))
        continue;
      SmallVector<arith::ConstantOp> constants;
      func.walk([&](arith::ConstantOp constant) {
        if (isa<RankedTensorType>(constant.getType()) &&
            !isa<SplatElementsAttr>(constant.getValue()))
          constants.push_back(constant);
      });
      for (arith::ConstantOp constant : constants) {
        unsigned index = func.getNumArguments();
        if (failed(func.insertArgument(
                index, constant.getType(),
                getHoistedConstantAttrs(
                    context, cast<ElementsAttr>(constant.getValue())),
                constant.getLoc()))) {
          constant.emitOpError("could not be made a function argument");
          return signalPassFailure();
        }
        constant.replaceAllUsesWith(func.getArgument(index));
        constant.erase();
      }
    }
  }
};
} // namespace
