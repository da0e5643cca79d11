//===- KernelArgAttrs.cpp - Aligned, noalias kernel arguments -------------===//
//
// Bare kernel pointers are `.ptr .align 1` to NVPTX, which then splits wide
// global accesses into bytes and halves; alignment and noalias give 16-byte and
// non-coherent (ld.global.nc) loads (docs/design/05-gpu-lowering-notes.md,
// gotcha 9: 1.6x on the mma.sync matmul).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

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
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      auto func = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      // A kernel that moves registers between its warpgroups (setmaxnreg)
      // must be compiled for its block size: ptxas then allocates at most
      // 65536 / threads registers per thread, the pool the warpgroups'
      // setmaxnreg share (without .maxntid it assumes blocks of up to 1024
      // threads or takes more registers than the pool holds).
      gpu::KernelDim3 blockSize = launch.getBlockSizeOperandValues();
      std::optional<int64_t> bx = getConstantIntValue(blockSize.x),
                             by = getConstantIntValue(blockSize.y),
                             bz = getConstantIntValue(blockSize.z);
      if (func && bx && by && bz &&
          func.getBody()
              .walk([](NVVM::SetMaxRegisterOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        func->setAttr("nvvm.maxntid",
                      b.getDenseI32ArrayAttr({int32_t(*bx), int32_t(*by),
                                              int32_t(*bz)}));
      // A kernel launched in clusters is compiled for them
      // (.explicitcluster, .reqnctapercluster): its blocks address each
      // other's shared memory, which a launch without clusters would not
      // give them.
      if (func && launch.hasClusterSize()) {
        gpu::KernelDim3 cluster = launch.getClusterSizeOperandValues();
        std::optional<int64_t> cx = getConstantIntValue(cluster.x),
                               cy = getConstantIntValue(cluster.y),
                               cz = getConstantIntValue(cluster.z);
        if (cx && cy && cz)
          func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                        b.getDenseI32ArrayAttr(
                            {int32_t(*cx), int32_t(*cy), int32_t(*cz)}));
      }
      // The registers a thread is to keep: 128, or the mark's value.
      int64_t registers = 0;
      if (func)
        func.getBody().walk([&](Operation *op) {
          Attribute mark =
              op->getAttr(blockbuster::kOccupancyBySharedMemoryAttrName);
          if (!mark)
            return WalkResult::advance();
          registers = 128;
          if (auto value = dyn_cast<IntegerAttr>(mark))
            registers = std::max<int64_t>(registers, value.getInt());
          return WalkResult::interrupt();
        });
      if (!registers)
        return;
      std::optional<int64_t> bytes =
          launch.getDynamicSharedMemorySize()
              ? getConstantIntValue(launch.getDynamicSharedMemorySize())
              : std::optional<int64_t>(0);
      gpu::KernelDim3 size = launch.getBlockSizeOperandValues();
      std::optional<int64_t> x = getConstantIntValue(size.x),
                             y = getConstantIntValue(size.y),
                             z = getConstantIntValue(size.z);
      if (!bytes || !x || !y || !z)
        return;
      // The H100's SM: 228 KB of shared memory (1 KB reserved per block),
      // 64 K registers, 2048 threads.
      int64_t threads = *x * *y * *z;
      int64_t blocks = std::min(228 * 1024 / (*bytes + 1024), 2048 / threads);
      blocks = std::min(blocks, 65536 / (registers * threads));
      if (blocks > 1)
        func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(blocks));
    });
  }
};

} // namespace
