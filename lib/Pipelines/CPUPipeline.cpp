//===- CPUPipeline.cpp - Block programs to LLVM for the host CPU ----------===//
//
// The CPU path of docs/design/03-lowering-and-runtime.md: block program ->
// per-block Linalg on tensors -> buffers -> loops -> LLVM dialect. It is the
// oracle that fused programs are checked against on every machine, so it
// favours plain, upstream passes over speed.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Pipelines/Pipelines.h"

#include "Blockbuster/Conversion/BlockToLinalg/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// Gives every tensor a function returns a buffer of its own. Canonicalizer
/// and CSE merge two identical computations that a function returns into one
/// value (a fused program that writes two equal outputs, or a Linalg
/// reference with two equal ops), and buffer-results-to-out-params crashes on
/// a buffer returned twice. Each repeat is copied into a fresh allocation
/// (alloc_tensor never aliases its copy source).
struct DistinctReturnedTensorsPass
    : PassWrapper<DistinctReturnedTensorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DistinctReturnedTensorsPass)

  StringRef getArgument() const final {
    return "blockbuster-distinct-returned-tensors";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<bufferization::BufferizationDialect>();
  }
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        unsigned index = operand.getOperandNumber();
        if (!type || !llvm::is_contained(
                         ret->getOperands().take_front(index), operand.get()))
          continue;
        operand.set(bufferization::AllocTensorOp::create(
            builder, ret.getLoc(), type, ValueRange{}, operand.get()));
      }
    });
  }
};
} // namespace

void blockbuster::addBufferizeToOutParams(OpPassManager &pm) {
  pm.addPass(std::make_unique<DistinctReturnedTensorsPass>());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A reduce whose combine region computes a new state yields a fresh buffer
  // from each iteration of its scf.for (the CPU's deallocation pipeline frees
  // it; the GPU pipeline carries the state in place).
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));

  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  // In MLIR 22 the pass skips public functions unless told otherwise, and
  // the entry points are public.
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
}

void blockbuster::buildLinalgTensorsToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  addBufferizeToOutParams(pm);

  // The CPU runs the block grid sequentially.
  pm.addPass(createForallToForLoopPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createConvertLinalgToLoopsPass());

  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 <-> f32 conversions become integer bit operations, so the JIT needs
  // no soft-float runtime for them.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  // Intrinsics where LLVM has them (exp, log, sqrt, ...), libm calls for the
  // rest (erf, tanh where no intrinsic applies).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void blockbuster::buildCPUPipeline(OpPassManager &pm) {
  ConvertBlockToLinalgOptions options;
  options.emitCInterface = true;
  pm.addPass(createConvertBlockToLinalg(options));
  buildLinalgTensorsToLLVMPipeline(pm);
}

void blockbuster::registerPipelines() {
  PassPipelineRegistration<>(
      "blockbuster-cpu-pipeline",
      "Lowers block programs (block sizes bound) to the LLVM dialect for the "
      "host CPU, entry points with C interfaces",
      buildCPUPipeline);
}
