//===- GPUArtifact.cpp - Compile block programs to a PTX artifact ---------===//

#include "Blockbuster/Pipelines/GPUArtifact.h"

#include "Blockbuster/Codegen/GPU/Passes.h"
#include "Blockbuster/Pipelines/GPUPipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

bool hasBlockPrograms(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (op.getName().getStringRef() == "block.program")
      return true;
  return false;
}

/// The argument attributes of every function with some, by name.
llvm::StringMap<ArrayAttr> getArgumentAttributes(ModuleOp module) {
  llvm::StringMap<ArrayAttr> attributes;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (ArrayAttr args = func.getAllArgAttrs())
      attributes[func.getName()] = args;
  return attributes;
}

/// Gives each function (a block.program after conversion) without argument
/// attributes those its namesake had: convert-linalg-to-block replaces a
/// function by a program of the same name and signature and drops them,
/// and the manifest names hoisted constants by theirs.
void restoreArgumentAttributes(ModuleOp module,
                               const llvm::StringMap<ArrayAttr> &attributes) {
  for (auto func : module.getOps<FunctionOpInterface>()) {
    auto it = attributes.find(func.getName());
    if (it != attributes.end() && !func.getAllArgAttrs() &&
        it->second.size() == func.getNumArguments())
      func.setAllArgAttrs(it->second);
  }
}

} // namespace

LogicalResult blockbuster::compileForGPU(ModuleOp module,
                                         const GPUCompileOptions &options,
                                         std::string *fusedProgram) {
  bool linalg = !hasBlockPrograms(module);
  if (linalg) {
    PassManager hoist(module.getContext());
    if (failed(parsePassPipeline("hoist-tensor-constants", hoist)) ||
        failed(hoist.run(module)))
      return failure();
  }
  llvm::StringMap<ArrayAttr> argumentAttributes =
      getArgumentAttributes(module);
  PassManager front(module.getContext());
  std::string pipeline;
  if (linalg)
    pipeline += "convert-linalg-to-block{whole-threshold=" +
                std::to_string(options.wholeThreshold) + "},";
  if (options.fuse)
    pipeline += "block-fuse{keep-snapshots=true target=" + options.target +
                "},";
  pipeline += "block-select{target=" + options.target;
  if (!options.blockSizes.empty())
    pipeline += " block-sizes=" + options.blockSizes;
  pipeline += "}";
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, front, errorStream)))
    return emitError(module.getLoc()) << "cannot build '" << pipeline
                                      << "': " << error;
  if (failed(front.run(module)))
    return failure();
  restoreArgumentAttributes(module, argumentAttributes);
  if (fusedProgram) {
    fusedProgram->clear();
    llvm::raw_string_ostream os(*fusedProgram);
    module.print(os);
  }
  PassManager back(module.getContext());
  GPUPipelineOptions gpu;
  gpu.chip = options.chip;
  gpu.features = options.features;
  gpu.threads = options.threads;
  buildGPUPipeline(back, gpu);
  return back.run(module);
}

LogicalResult blockbuster::writeArtifact(ModuleOp module, StringRef entry,
                                         StringRef dir) {
  auto manifests = module->getAttrOfType<DictionaryAttr>(kManifestAttrName);
  if (!manifests || manifests.empty())
    return emitError(module.getLoc())
           << "no launch manifest: run blockbuster-gpu-pipeline first";
  StringAttr text;
  if (entry.empty()) {
    if (manifests.size() != 1)
      return emitError(module.getLoc())
             << "the module has " << manifests.size()
             << " entries; name one (--entry)";
    text = dyn_cast<StringAttr>(manifests.begin()->getValue());
    entry = manifests.begin()->getName().getValue();
  } else {
    text = manifests.getAs<StringAttr>(entry);
  }
  if (!text)
    return emitError(module.getLoc()) << "no entry named '" << entry << "'";

  llvm::Expected<llvm::json::Value> manifest = llvm::json::parse(text);
  if (!manifest)
    return emitError(module.getLoc())
           << "corrupt manifest: " << llvm::toString(manifest.takeError());
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return emitError(module.getLoc())
           << "cannot create " << dir << ": " << ec.message();

  auto writeFile = [&](StringRef name, StringRef contents) -> LogicalResult {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return emitError(module.getLoc())
             << "cannot write " << path << ": " << ec.message();
    os << contents;
    return success();
  };

  const llvm::json::Array *modules =
      manifest->getAsObject()->getArray("modules");
  for (const llvm::json::Value &m : *modules) {
    StringRef name = *m.getAsObject()->getString("name");
    StringRef file = *m.getAsObject()->getString("ptx");
    auto binary = module.lookupSymbol<gpu::BinaryOp>(name);
    if (!binary)
      return emitError(module.getLoc())
             << "kernel module '" << name << "' has no gpu.binary";
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    if (object.getFormat() != gpu::CompilationTarget::Assembly)
      return binary.emitError("expected PTX (gpu-module-to-binary "
                              "format=isa)");
    if (failed(writeFile(file, object.getObject().getValue())))
      return failure();
  }
  return writeFile("manifest.json", text.getValue().str() + "\n");
}
