//===- KernelArgAttrs.cpp - Aligned, noalias kernel arguments -------------===//
//
// Bare kernel pointers are `.ptr .align 1` to NVPTX, which then splits wide
// global accesses into bytes and halves; alignment and noalias give 16-byte and
// non-coherent (ld.global.nc) loads (docs/design/05-gpu-lowering-notes.md,
// gotcha 9: 1.6x on the mma.sync matmul).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUKERNELARGATTRS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

struct GPUKernelArgAttrs
    : blockbuster::impl::GPUKernelArgAttrsBase<GPUKernelArgAttrs> {
  using Base::Base;
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        if (!isa<MemRefType>(func.getArgument(i).getType()))
          continue;
        func.setArgAttr(i, "llvm.align", b.getI64IntegerAttr(align));
        func.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
      }
    });
  }
};

} // namespace
