//===- GlobalAccess.h - Global memory by address, in inline PTX -*- C++ -*-===//
//
// Accesses of global memory that the kernels make through inline PTX, where
// the form LLVM would give them costs more: loads LLVM must not fold or
// move (the decode GEMV's weights, DecodeGemv.cpp), and stores under a
// predicate (the partial edge tiles of a GEMM epilogue, WarpgroupMatmul.cpp)
// that stay in straight-line code: a branch around each store splits the
// epilogue into basic blocks, and ptxas then issues every load before the
// first branch (a split GEMM's combine: 132 16-byte loads, 255 registers and
// about 1 KB of spills at partial n tiles).
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_GLOBALACCESS_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_GLOBALACCESS_H

#include "mlir/IR/Builders.h"

namespace blockbuster {

/// The global-space pointer (`!llvm.ptr<1>`) to the element at `indices` of
/// `view`, a strided memref of global memory.
mlir::Value globalPointer(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value view, mlir::ValueRange indices);

/// `st.global.v<n>.b32` of the i32 `words` (2 or 4) at `pointer`, predicated
/// on the i1 `predicate` (`@p st`, no branch).
void storeGlobalIf(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::Value predicate, mlir::Value pointer,
                   mlir::ValueRange words);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_GLOBALACCESS_H
