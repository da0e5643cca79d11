//===- ExternDynamicSharedMemory.cpp - LLVM 22 dynamic smem workaround ----===//
//
// convert-gpu-to-nvvm lowers gpu.dynamic_shared_memory to an internal
// zero-sized addrspace(3) global; NVPTX prints that as a 1-byte *static*
// variable, which then overlaps other shared variables instead of naming the
// dynamic shared memory (docs/design/05-gpu-lowering-notes.md, gotcha 3).
// External linkage makes it `.extern .shared .align A .b8 name[]`, the dynamic
// shared memory.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUEXTERNDYNAMICSHAREDMEMORY
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

struct GPUExternDynamicSharedMemory
    : blockbuster::impl::GPUExternDynamicSharedMemoryBase<
          GPUExternDynamicSharedMemory> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(std::max<uint64_t>(
          alignment, global.getAlignment().value_or(0)));
    });
  }
};

} // namespace
