//===- Pipelines.h - Blockbuster pass pipelines -----------------*- C++ -*-===//
//
// Registered pass pipelines that take a program from one form to another,
// usable from bb-opt, from mlir-opt with the plugin, and from C++ (bb-run
// builds its pass managers with these functions).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_PIPELINES_PIPELINES_H
#define BLOCKBUSTER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace blockbuster {

/// Linalg on tensors to buffers, shared by the CPU and GPU pipelines: every
/// returned tensor gets a buffer of its own (buffer-results-to-out-params
/// crashes on one returned twice), one-shot-bufferize across functions with
/// identity layouts (loops may yield fresh buffers), results as out-params
/// (public functions too), canonicalize.
void addBufferizeToOutParams(mlir::OpPassManager &pm);

/// Upstream MLIR's ordinary path from Linalg on tensors (func.func) to the
/// LLVM dialect for the host CPU, with nothing of Blockbuster in it: this is
/// how the reference side of a differential check is compiled.
/// canonicalize and cse; one-shot-bufferize across function boundaries with
/// identity layouts; memref results become out-params (also of public
/// functions, so that a caller owns every output buffer); scf.forall ->
/// scf.for; buffer deallocation; linalg -> loops; then scf -> cf and
/// arith, math (libm for erf and tanh), memref, func and cf to LLVM, and
/// reconcile-unrealized-casts. Functions marked `llvm.emit_c_interface` get
/// a `_mlir_ciface_<name>` wrapper that takes memref descriptors by pointer.
void buildLinalgTensorsToLLVMPipeline(mlir::OpPassManager &pm);

/// `blockbuster-cpu-pipeline`: a block program whose block sizes are bound
/// (run block-select first) to the LLVM dialect for the host CPU:
/// convert-block-to-linalg with `emit-c-interface`, then
/// buildLinalgTensorsToLLVMPipeline.
void buildCPUPipeline(mlir::OpPassManager &pm);

/// Registers every Blockbuster pipeline with the global pass registry.
void registerPipelines();

} // namespace blockbuster

#endif // BLOCKBUSTER_PIPELINES_PIPELINES_H
