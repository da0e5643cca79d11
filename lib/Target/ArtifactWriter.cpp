//===- ArtifactWriter.cpp - Write a compiled module as an artifact --------===//

#include "Blockbuster/Target/ArtifactWriter.h"

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace blockbuster;

LogicalResult blockbuster::writeArtifact(ModuleOp module, StringRef entry,
                                         StringRef dir) {
  auto manifests = module->getAttrOfType<DictionaryAttr>(kManifestAttrName);
  if (!manifests || manifests.empty())
    return emitError(module.getLoc())
           << "no launch manifest: run blockbuster-gpu-pipeline first";
  StringAttr text;
  if (entry.empty()) {
    if (manifests.size() != 1)
      return emitError(module.getLoc()) << "the module has " << manifests.size()
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
