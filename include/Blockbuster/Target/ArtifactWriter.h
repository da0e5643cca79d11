//===- ArtifactWriter.h - A compiled module as an artifact ------*- C++ -*-===//
//
// The artifact of docs/design/03-lowering-and-runtime.md: one PTX file per
// kernel module plus a JSON manifest (docs/Artifact.md), written by bb-compile
// and by the C API from a module that went through blockbuster-gpu-pipeline
// (Blockbuster/Pipelines/GPUCompile.h). The runtimes read it back
// (lib/Runtime/CUDA/Artifact.cpp, python/blockbuster/artifact.py).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_TARGET_ARTIFACTWRITER_H
#define BLOCKBUSTER_TARGET_ARTIFACTWRITER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace blockbuster {

/// Writes the artifact of `entry` (empty: the module's only entry) from a
/// module that went through blockbuster-gpu-pipeline: `dir`/manifest.json and
/// one `<module>.ptx` per kernel module it launches. Creates `dir`.
mlir::LogicalResult writeArtifact(mlir::ModuleOp module, llvm::StringRef entry,
                                  llvm::StringRef dir);

} // namespace blockbuster

#endif // BLOCKBUSTER_TARGET_ARTIFACTWRITER_H
