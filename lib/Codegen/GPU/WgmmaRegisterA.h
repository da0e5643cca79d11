//===- WgmmaRegisterA.h - wgmma with its A operand in registers -*- C++ -*-===//
//
// `wgmma.mma_async` reads A either through a shared-memory descriptor or
// from registers: four 32-bit registers per thread, each two 16-bit
// elements, in the fragment layout of one m64k16 tile. Upstream MLIR 22's
// `nvvm.wgmma.mma_async` (and `nvgpu.warpgroup.mma`, which lowers to it)
// takes descriptors only, so the register form is emitted here as LLVM
// inline assembly, the way NVVM's own wgmma op ends up after
// `convert-nvvm-to-llvm`.
//
// The fragment layout (PTX ISA, "Register fragment for matrix A" of wgmma;
// the same as mma.m16n8k16's A within each warp): warp w of the warpgroup
// holds rows 16 w to 16 w + 15 of the 64; lane l holds, with
// r = 16 w + l / 4 and c = 2 (l % 4),
//   register 0: (r, c), (r, c + 1)          register 1: (r + 8, c), (r + 8, c + 1)
//   register 2: (r, c + 8), (r, c + 9)      register 3: (r + 8, c + 8), (r + 8, c + 9)
// (the first element in the low half). `ldmatrix.x4` whose lanes 8 i to
// 8 i + 7 address the rows of 8 x 8 quarter i = (rows + 8 (i % 2), columns
// + 8 (i / 2)) gives exactly these four registers.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_WGMMAREGISTERA_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_WGMMAREGISTERA_H

#include "mlir/IR/Builders.h"

namespace blockbuster {

/// Emits one `wgmma.mma_async.sync.aligned.m64n<n>k16.f32.<t>.<t>` with A
/// from the four i32 registers `a` (the fragment layout above), B from the
/// shared-memory matrix descriptor `descB` (i64; `transposeB`: B is stored
/// N-major, as the TMA ring stores it) and the accumulator `acc`, an LLVM
/// struct of n / 2 f32 (wgmma's accumulator fragment, as
/// convert-nvgpu-to-nvvm holds it). `elementType` is f16 or bf16. Returns
/// the new accumulator struct. The caller fences the registers
/// (`wgmma.fence`) before the first of a group and commits and waits on
/// the group after the last: A's registers and the accumulator must not be
/// written until the wait that covers this wgmma (PTX ISA).
mlir::Value createWgmmaRegisterA(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Value acc, mlir::ValueRange a,
                                 mlir::Value descB, mlir::Type elementType,
                                 bool transposeB);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_WGMMAREGISTERA_H
