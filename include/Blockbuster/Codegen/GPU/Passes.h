//===- Passes.h - Tiled Linalg to the GPU dialect ---------------*- C++ -*-===//

#ifndef BLOCKBUSTER_CODEGEN_GPU_PASSES_H
#define BLOCKBUSTER_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace blockbuster {

#define GEN_PASS_DECL
#include "Blockbuster/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Blockbuster/Codegen/GPU/Passes.h.inc"

/// Name of the function attribute holding the number of inputs.
inline constexpr llvm::StringLiteral kNumInputsAttrName =
    "blockbuster.num_inputs";
/// Name of the module attribute holding the launch manifest (JSON).
inline constexpr llvm::StringLiteral kManifestAttrName = "blockbuster.manifest";
/// On a block grid: the threads of its blocks, where a pass chose them
/// (gpu-row-kernels: one warp per row); otherwise the pipeline's `threads`.
inline constexpr llvm::StringLiteral kBlockThreadsAttrName =
    "blockbuster.block_threads";

/// On an op of a kernel (gpu-flash-attention's thread id): the kernel's
/// registers should not hold fewer of its blocks on an SM than its shared
/// memory allows; gpu-kernel-arg-attrs turns it into `nvvm.minctasm`. A
/// unit attribute leaves each thread at least 128 registers, an integer
/// that many (the overlap schedule's S in flight).
inline constexpr llvm::StringLiteral kOccupancyBySharedMemoryAttrName =
    "blockbuster.occupancy_by_shared_memory";

/// On a block grid: the blocks of a thread-block cluster along x, which
/// gpu-map-grid-to-launch gives the launch (gpu-warpgroup-matmul's
/// multicast ring: its blocks write into each other's shared memory).
inline constexpr llvm::StringLiteral kClusterBlocksAttrName =
    "blockbuster.cluster_blocks";

/// On a host allocation: a workspace of the artifact (docs/Artifact.md),
/// zeroed by the runtime when it allocates it and left zeroed by the
/// kernels (gpu-split-reductions' counters).
inline constexpr llvm::StringLiteral kWorkspaceAttrName =
    "blockbuster.workspace";

/// True if `forall` is a block grid (mapped to #gpu.block).
bool isBlockGrid(mlir::scf::ForallOp forall);

/// The outermost block grids under `root`, in order (the passes that
/// rewrite whole blocks collect them first, then rewrite).
llvm::SmallVector<mlir::scf::ForallOp> collectBlockGrids(mlir::Operation *root);

} // namespace blockbuster

#endif // BLOCKBUSTER_CODEGEN_GPU_PASSES_H
