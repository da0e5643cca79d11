//===- TmaRing.h - TMA copies and wgmma descriptors on sm_90a ---*- C++ -*-===//
//
// The pieces of a TMA ring that gpu-warpgroup-matmul (GEMM blocks) and
// gpu-flash-attention (Q, K and V tiles of attention blocks) share: the
// host-side tensor map of a global array (128-byte swizzle, zero fill out
// of bounds), the wait for one round of a slot's mbarrier, and the 64-bit
// shared-memory matrix descriptor of wgmma for tiles stored with that
// swizzle.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_CODEGEN_GPU_TMARING_H
#define BLOCKBUSTER_LIB_CODEGEN_GPU_TMARING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace blockbuster {

/// The 128-byte swizzle spans 64 elements of 16 bits: a box row of 16-bit
/// elements is at most this wide, and wider tiles are several boxes.
constexpr int64_t kTmaSwizzleElements = 64;
/// Spin hint of mbarrier.try_wait (the op loops until the phase completes).
constexpr int64_t kTmaWaitTicks = 10000000;

/// On the host (at the builder's insertion point): the TMA descriptor of
/// the global array `source` (a memref of 16-bit elements) with boxes of
/// `box` elements (outermost first; the innermost 64), 128-byte swizzle,
/// zero fill out of bounds, L2 promotion of 256 bytes where the rows are
/// whole 128-byte lines and 128 otherwise.
mlir::Value createTmaDescriptor(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value source,
                                llvm::ArrayRef<int64_t> box);

/// Waits on the barrier of slot `use % stages` of `group` for the phase of
/// round `use / stages` (the use-th completion of the ring's barriers,
/// counted from 0 over the slots in turn).
void waitForRound(mlir::OpBuilder &b, mlir::Location loc, mlir::Value group,
                  mlir::Value use, int64_t stages);

/// The wgmma matrix descriptor (an i64) of the tile at byte `offset` of the
/// workgroup memref `buffer`, stored with the 128-byte swizzle: rows of 128
/// bytes, 8-row groups `strideBytes` apart, and (for a tile whose rows are
/// its M or N axis, wgmma's "transposed" operands) 64-element column
/// blocks `leadingBytes` apart. For tiles whose rows are the contracted
/// axis (K-major) the leading offset is unused.
mlir::Value sharedMatrixDescriptor(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Value buffer, mlir::Value offset,
                                   int64_t leadingBytes, int64_t strideBytes);

/// The descriptor of the tile `bytes` (a multiple of 16) past the one of
/// `descriptor` (a sharedMatrixDescriptor), with the same offsets and
/// swizzle: `bytes / 16` added to its start-address field (CUTLASS's and
/// Triton's descriptor iteration). Equal to sharedMatrixDescriptor of the
/// advanced offset: the field holds address bits 4-17 and a CTA's shared
/// window (at most 228 KB) ends below 2^18, so the sum never carries out
/// of it. So a loop builds one descriptor per tile and adds a constant per
/// k step, instead of masking, shifting and merging each step's address.
mlir::Value advanceMatrixDescriptor(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value descriptor, int64_t bytes);

} // namespace blockbuster

#endif // BLOCKBUSTER_LIB_CODEGEN_GPU_TMARING_H
