//===- LaunchManifest.cpp - The host side of an entry as JSON -------------===//
//
// After kernel outlining a host function is a list of buffer allocations and
// kernel launches. The device that runs the kernels has no MLIR, so this list
// is what the runtime executes: it is recorded as JSON (docs/Artifact.md) in
// the module attribute `blockbuster.manifest`, a dictionary from entry name
// to manifest, which survives the rest of the pipeline for bb-compile to
// write out.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/JSON.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPULAUNCHMANIFEST
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

std::optional<std::string> dtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isSignlessInteger(1))
    return "i1";
  for (unsigned width : {8, 16, 32, 64})
    if (type.isSignlessInteger(width))
      return "i" + std::to_string(width);
  return std::nullopt;
}

std::string swizzleName(nvgpu::TensorMapSwizzleKind kind) {
  switch (kind) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    return "none";
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    return "32B";
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    return "64B";
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    return "128B";
  }
  llvm_unreachable("unknown swizzle");
}

std::string l2PromotionName(nvgpu::TensorMapL2PromoKind kind) {
  switch (kind) {
  case nvgpu::TensorMapL2PromoKind::L2PROMO_NONE:
    return "none";
  case nvgpu::TensorMapL2PromoKind::L2PROMO_64B:
    return "64B";
  case nvgpu::TensorMapL2PromoKind::L2PROMO_128B:
    return "128B";
  case nvgpu::TensorMapL2PromoKind::L2PROMO_256B:
    return "256B";
  }
  llvm_unreachable("unknown L2 promotion");
}

struct GPULaunchManifest
    : blockbuster::impl::GPULaunchManifestBase<GPULaunchManifest> {
  using Base::Base;

  FailureOr<llvm::json::Object> describeBuffer(Operation *where, Value value,
                                               StringRef name, StringRef kind) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return where->emitError("the GPU runtime needs buffers of static shape "
                              "and identity layout, not ")
             << value.getType();
    std::optional<std::string> dtype = dtypeName(type.getElementType());
    if (!dtype)
      return where->emitError("element type ")
             << type.getElementType() << " has no runtime dtype";
    int64_t elementBytes =
        type.getElementType().isInteger(1)
            ? 1
            : type.getElementTypeBitWidth() / 8;
    llvm::json::Object buffer{
        {"name", name.str()},
        {"kind", kind.str()},
        {"shape", llvm::json::Array(type.getShape())},
        {"dtype", *dtype},
        {"bytes", type.getNumElements() * elementBytes}};
    return buffer;
  }

  /// The `tensor_map` parameter of docs/Artifact.md: the buffer, its
  /// shape, the box copied per load (outermost dimension first, as the
  /// shapes) and the swizzle.
  FailureOr<llvm::json::Object>
  describeTensorMap(nvgpu::TmaCreateDescriptorOp descriptor,
                    const DenseMap<Value, std::string> &names) {
    auto ranked = descriptor.getTensor().getDefiningOp<memref::CastOp>();
    auto it = names.find(descriptor.getTensor());
    if (!ranked || it == names.end())
      return descriptor.emitError("a TMA descriptor of a value that is not "
                                  "a buffer");
    auto type = cast<MemRefType>(ranked.getSource().getType());
    nvgpu::TensorMapDescriptorType map = descriptor.getTensorMap().getType();
    if (map.getInterleave() != nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE)
      return descriptor.emitError("interleaved TMA descriptors are not "
                                  "supported by the runtimes");
    llvm::json::Array box;
    for (Value size : descriptor.getBoxDimensions()) {
      std::optional<int64_t> value = getConstantIntValue(size);
      if (!value)
        return descriptor.emitError("TMA box sizes must be constants");
      box.push_back(*value);
    }
    return llvm::json::Object{
        {"buffer", it->second},
        {"dtype", *dtypeName(type.getElementType())},
        {"global_shape", llvm::json::Array(type.getShape())},
        {"box", std::move(box)},
        {"swizzle", swizzleName(map.getSwizzle())},
        {"l2_promotion", l2PromotionName(map.getL2promo())},
        {"oob_fill",
         map.getOob() == nvgpu::TensorMapOOBKind::OOB_ZERO ? "zero" : "nan"}};
  }

  FailureOr<llvm::json::Object> describe(func::FuncOp func) {
    if (func.getNumResults() != 0)
      return func.emitError("expected results as out-parameters "
                            "(run buffer-results-to-out-params)");
    auto numInputsAttr =
        func->getAttrOfType<IntegerAttr>(blockbuster::kNumInputsAttrName);
    unsigned numInputs =
        numInputsAttr ? numInputsAttr.getInt() : func.getNumArguments();

    llvm::json::Array buffers, launches;
    llvm::SetVector<StringRef> modules;
    DenseMap<Value, std::string> names;
    for (BlockArgument arg : func.getArguments()) {
      bool input = arg.getArgNumber() < numInputs;
      std::string name = (input ? "arg" : "res") +
                         std::to_string(input ? arg.getArgNumber()
                                              : arg.getArgNumber() - numInputs);
      FailureOr<llvm::json::Object> buffer =
          describeBuffer(func, arg, name, input ? "input" : "output");
      if (failed(buffer))
        return failure();
      (*buffer)["position"] =
          input ? arg.getArgNumber() : arg.getArgNumber() - numInputs;
      // A weight hoisted by hoist-tensor-constants: the key that binds it.
      if (auto key = func.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), "blockbuster.hoisted_constant");
          key && input)
        (*buffer)["constant"] = key.getValue();
      buffers.push_back(std::move(*buffer));
      names[arg] = name;
    }

    auto constant = [](Value v) -> int64_t {
      if (!v)
        return 0;
      return getConstantIntValue(v).value_or(-1);
    };
    unsigned numTemporaries = 0;
    DenseMap<Value, llvm::json::Object> tensorMaps;
    for (Operation &op : func.getBody().front()) {
      if (isa<arith::ConstantOp, memref::DeallocOp, func::ReturnOp>(op))
        continue;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        std::string name = "tmp" + std::to_string(numTemporaries++);
        // A workspace is zeroed by the runtime when it is allocated.
        bool workspace = alloc->hasAttr(blockbuster::kWorkspaceAttrName);
        FailureOr<llvm::json::Object> buffer = describeBuffer(
            &op, alloc, name, workspace ? "workspace" : "intermediate");
        if (failed(buffer))
          return failure();
        buffers.push_back(std::move(*buffer));
        names[alloc] = name;
        continue;
      }
      // Reshapes of a contiguous buffer keep its base pointer.
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(
              op)) {
        auto it = names.find(op.getOperand(0));
        if (it == names.end())
          return op.emitError("a view of a value that is not a buffer");
        names[op.getResult(0)] = it->second;
        continue;
      }
      // A TMA descriptor of a buffer, passed to kernels as a pointer
      // (gpu-tensor-map-params): the runtime encodes it.
      if (auto descriptor = dyn_cast<nvgpu::TmaCreateDescriptorOp>(op)) {
        FailureOr<llvm::json::Object> map =
            describeTensorMap(descriptor, names);
        if (failed(map))
          return failure();
        tensorMaps.try_emplace(descriptor.getResult(), std::move(*map));
        continue;
      }
      if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
          cast && cast->getNumOperands() == 1 &&
          tensorMaps.count(cast->getOperand(0))) {
        tensorMaps.try_emplace(cast->getResult(0),
                               tensorMaps.lookup(cast->getOperand(0)));
        continue;
      }
      auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
      if (!launch)
        return op.emitError("the GPU runtime cannot execute this host "
                            "operation; only buffer allocations, reshapes "
                            "and kernel launches can be in an entry");
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      llvm::json::Array params;
      for (Value operand : launch.getKernelOperands()) {
        auto it = names.find(operand);
        if (it != names.end()) {
          params.push_back(llvm::json::Object{{"buffer", it->second}});
          continue;
        }
        if (auto map = tensorMaps.find(operand); map != tensorMaps.end()) {
          params.push_back(llvm::json::Object{
              {"tensor_map", llvm::json::Object(map->second)}});
          continue;
        }
        std::optional<int64_t> value = getConstantIntValue(operand);
        if (value && operand.getType().isIntOrIndex()) {
          params.push_back(llvm::json::Object{
              {"scalar", operand.getType().isIndex()
                             ? "i64"
                             : *dtypeName(operand.getType())},
              {"value", *value}});
          continue;
        }
        return launch.emitError("kernel operand #")
               << params.size()
               << " is neither a buffer of the entry nor a constant";
      }
      for (Value v : {grid.x, grid.y, grid.z, block.x, block.y, block.z,
                      Value(launch.getDynamicSharedMemorySize())})
        if (v && !getConstantIntValue(v))
          return launch.emitError("grid, block and shared memory sizes must "
                                  "be constants");
      StringRef module = launch.getKernelModuleName().getValue();
      modules.insert(module);
      llvm::json::Object entry{
          {"module", module.str()},
          {"kernel", launch.getKernelName().getValue().str()},
          {"grid", llvm::json::Array{constant(grid.x), constant(grid.y),
                                     constant(grid.z)}},
          {"block", llvm::json::Array{constant(block.x), constant(block.y),
                                      constant(block.z)}},
          {"dynamic_smem", constant(launch.getDynamicSharedMemorySize())},
          {"params", std::move(params)}};
      // Thread-block clusters, only where the launch has them (the
      // runtimes then launch with the cluster dimension attribute).
      if (launch.hasClusterSize()) {
        gpu::KernelDim3 cluster = launch.getClusterSizeOperandValues();
        for (Value v : {cluster.x, cluster.y, cluster.z})
          if (!getConstantIntValue(v))
            return launch.emitError("cluster sizes must be constants");
        entry["cluster"] = llvm::json::Array{
            constant(cluster.x), constant(cluster.y), constant(cluster.z)};
      }
      launches.push_back(std::move(entry));
    }
    llvm::json::Array moduleList;
    for (StringRef module : modules)
      moduleList.push_back(llvm::json::Object{
          {"name", module.str()}, {"ptx", (module + ".ptx").str()}});
    return llvm::json::Object{
        {"format", "blockbuster-artifact"},
        {"version", 1},
        {"entry", func.getSymName().str()},
        {"target", llvm::json::Object{{"chip", std::string(chip)},
                                       {"features", std::string(features)}}},
        {"modules", std::move(moduleList)},
        {"buffers", std::move(buffers)},
        {"launches", std::move(launches)}};
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(&getContext());
    SmallVector<NamedAttribute> manifests;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      FailureOr<llvm::json::Object> manifest = describe(func);
      if (failed(manifest))
        return signalPassFailure();
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::formatv("{0:2}",
                          llvm::json::Value(std::move(*manifest)));
      manifests.push_back(b.getNamedAttr(func.getSymName(), b.getStringAttr(text)));
    }
    module->setAttr(blockbuster::kManifestAttrName,
                    b.getDictionaryAttr(manifests));
  }
};

} // namespace
