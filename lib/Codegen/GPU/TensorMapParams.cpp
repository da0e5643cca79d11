//===- TensorMapParams.cpp - TMA descriptors as kernel pointers -----------===//
//
// convert-gpu-to-nvvm cannot lower a gpu.func parameter of type
// !nvgpu.tensormap.descriptor (docs/design/05-gpu-lowering-notes.md, gotcha 6),
// and what the kernel receives is a device pointer to the 128-byte CUtensorMap
// that the runtime encodes on the host (docs/Artifact.md). So after outlining
// such a parameter becomes !llvm.ptr, cast back to the descriptor at the
// kernel's entry (convert-nvgpu-to-nvvm then uses the pointer itself), and each
// launch passes the host's descriptor through the inverse cast, which the
// launch manifest reads through to the `nvgpu.tma.create.descriptor`.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUTENSORMAPPARAMS
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

struct GPUTensorMapParams
    : blockbuster::impl::GPUTensorMapParamsBase<GPUTensorMapParams> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    Type pointer = LLVM::LLVMPointerType::get(&getContext());
    auto isTensorMap = [](Type type) {
      return isa<nvgpu::TensorMapDescriptorType>(type);
    };

    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel() ||
          llvm::none_of(func.getArgumentTypes(), isTensorMap))
        return;
      Block &entry = func.getBody().front();
      b.setInsertionPointToStart(&entry);
      SmallVector<Type> inputs;
      for (BlockArgument arg : func.getArguments()) {
        Type type = arg.getType();
        if (!isTensorMap(type)) {
          inputs.push_back(type);
          continue;
        }
        arg.setType(pointer);
        auto cast =
            UnrealizedConversionCastOp::create(b, func.getLoc(), type, arg);
        arg.replaceAllUsesExcept(cast.getResult(0), cast);
        inputs.push_back(pointer);
      }
      func.setFunctionType(
          b.getFunctionType(inputs, func.getFunctionType().getResults()));
    });

    module.walk([&](gpu::LaunchFuncOp launch) {
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        if (!isTensorMap(operand.get().getType()))
          continue;
        b.setInsertionPoint(launch);
        operand.set(UnrealizedConversionCastOp::create(b, launch.getLoc(),
                                                       pointer, operand.get())
                        .getResult(0));
      }
    });
  }
};

} // namespace
