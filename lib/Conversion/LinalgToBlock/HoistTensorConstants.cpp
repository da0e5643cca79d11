//===- HoistTensorConstants.cpp - Tensor constants to arguments -----------===//

#include "Blockbuster/Conversion/LinalgToBlock/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

namespace blockbuster {
#define GEN_PASS_DEF_HOISTTENSORCONSTANTS
#include "Blockbuster/Conversion/LinalgToBlock/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {
struct HoistTensorConstantsPass
    : public blockbuster::impl::HoistTensorConstantsBase<
          HoistTensorConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto marker = DictionaryAttr::get(
        context, {NamedAttribute(StringAttr::get(context,
                                                 "blockbuster.hoisted_constant"),
                                 UnitAttr::get(context))});
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
        if (failed(func.insertArgument(index, constant.getType(), marker,
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
