//===- DropBinaryTimings.cpp - Deterministic gpu.binary properties --------===//
//
// gpu-module-to-binary records how long LLVM took (LLVMIRToISATimeInMs, ...)
// in each object's properties, so two runs on the same input print different
// IR. The timings are dropped; everything else is kept.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUDROPBINARYTIMINGS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

struct GPUDropBinaryTimings
    : blockbuster::impl::GPUDropBinaryTimingsBase<GPUDropBinaryTimings> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        DictionaryAttr properties = object.getProperties();
        if (properties) {
          SmallVector<NamedAttribute> kept;
          for (NamedAttribute p : properties)
            if (!p.getName().getValue().ends_with("TimeInMs"))
              kept.push_back(p);
          properties = DictionaryAttr::get(&getContext(), kept);
        }
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), object.getTarget(), object.getFormat(),
            object.getObject(), properties, object.getKernels()));
      }
      binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    });
  }
};

} // namespace
