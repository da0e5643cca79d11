//===- TmaRing.cpp - TMA copies and wgmma descriptors on sm_90a -----------===//

#include "TmaRing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;

namespace blockbuster {

Value createTmaDescriptor(OpBuilder &b, Location loc, Value source,
                          ArrayRef<int64_t> box) {
  auto type = cast<MemRefType>(source.getType());
  Type element = type.getElementType();
  Value unranked = memref::CastOp::create(
      b, loc, UnrankedMemRefType::get(element, Attribute()), source);
  // L2 promotion: 256 bytes where the rows are whole 128-byte lines; 128
  // where they are not (each 128-byte row of a box then spans two lines).
  // On the H100, M4000 K4040 N4056 (rows of 8080 and 8112 bytes) took
  // 0.332 ms with 256 and 0.279 with 128; 4096^3 is fastest with 256
  // (docs/performance.md).
  int64_t rowBytes =
      type.getShape().back() * element.getIntOrFloatBitWidth() / 8;
  auto promotion = rowBytes % 128 == 0
                       ? nvgpu::TensorMapL2PromoKind::L2PROMO_256B
                       : nvgpu::TensorMapL2PromoKind::L2PROMO_128B;
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto mapType = nvgpu::TensorMapDescriptorType::get(
      b.getContext(),
      MemRefType::get(box, element, MemRefLayoutAttrInterface(), workgroup),
      nvgpu::TensorMapSwizzleKind::SWIZZLE_128B, promotion,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  SmallVector<Value> sizes;
  for (int64_t size : box)
    sizes.push_back(arith::ConstantIndexOp::create(b, loc, size));
  return nvgpu::TmaCreateDescriptorOp::create(b, loc, mapType, unranked, sizes);
}

void waitForRound(OpBuilder &b, Location loc, Value group, Value use,
                  int64_t stages) {
  Value count = arith::ConstantIndexOp::create(b, loc, stages);
  Value slot = arith::RemUIOp::create(b, loc, use, count);
  Value round = arith::DivUIOp::create(b, loc, use, count);
  Value parity = arith::IndexCastOp::create(
      b, loc, b.getI1Type(),
      arith::RemUIOp::create(b, loc, round,
                             arith::ConstantIndexOp::create(b, loc, 2)));
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, group, parity,
      arith::ConstantIndexOp::create(b, loc, kTmaWaitTicks), slot);
}

Value sharedMatrixDescriptor(OpBuilder &b, Location loc, Value buffer,
                             Value offset, int64_t leadingBytes,
                             int64_t strideBytes) {
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  // The shared-memory address of the tile (the aligned pointer of a
  // workgroup memref is its offset in the CTA's shared window).
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value address = arith::IndexCastUIOp::create(
      b, loc, i64, arith::AddIOp::create(b, loc, base, offset));
  // Bits 0-13: address bits 4-17; 16-29: leading byte offset / 16; 32-45:
  // stride byte offset / 16; 62-63: the swizzle (1: 128 bytes). The base
  // offset (bits 49-51) is 0: every tile starts at a 1024-byte boundary of
  // the swizzle pattern.
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, constant(0x3FFFF)),
      constant(4));
  int64_t fields = ((leadingBytes >> 4) & 0x3FFF) << 16 |
                   ((strideBytes >> 4) & 0x3FFF) << 32 | int64_t(1) << 62;
  return arith::OrIOp::create(b, loc, start, constant(fields));
}

Value advanceMatrixDescriptor(OpBuilder &b, Location loc, Value descriptor,
                              int64_t bytes) {
  assert(bytes % 16 == 0 && bytes >= 0 && bytes < (int64_t(1) << 18) &&
         "an offset inside the shared window, in units of 16 bytes");
  if (bytes == 0)
    return descriptor;
  return arith::AddIOp::create(
      b, loc, descriptor,
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), bytes >> 4));
}

} // namespace blockbuster
