//===- LinearForalls.h - 1-D foralls over a block's threads or warps -*- C++ -*-===//
//
// The GPU lowerings that write their own per-thread or per-warp code (dots,
// row reductions, one-thread ops) wrap it in a 1-D scf.forall mapped to the
// block's linear thread or warp ids; gpu-map-grid-to-launch maps it and
// puts a barrier after it.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_LINEARFORALLS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_LINEARFORALLS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace blockbuster {

/// An empty scf.forall of `count` iterations over linear thread ids.
mlir::scf::ForallOp createThreadForall(mlir::OpBuilder &b, mlir::Location loc,
                                       int64_t count);

/// An empty scf.forall of `count` iterations over linear warp ids.
mlir::scf::ForallOp createWarpForall(mlir::OpBuilder &b, mlir::Location loc,
                                     int64_t count);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_LINEARFORALLS_H
