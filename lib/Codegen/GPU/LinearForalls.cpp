//===- LinearForalls.cpp - 1-D foralls over a block's threads or warps ----===//

#include "LinearForalls.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

static scf::ForallOp createLinearForall(OpBuilder &b, Location loc,
                                        int64_t count, Attribute mapping) {
  return scf::ForallOp::create(b, loc,
                               ArrayRef<OpFoldResult>{b.getIndexAttr(count)},
                               ValueRange{}, b.getArrayAttr({mapping}));
}

scf::ForallOp blockbuster::createThreadForall(OpBuilder &b, Location loc,
                                              int64_t count) {
  return createLinearForall(
      b, loc, count,
      gpu::GPUThreadMappingAttr::get(b.getContext(), gpu::MappingId::LinearDim0));
}

scf::ForallOp blockbuster::createWarpForall(OpBuilder &b, Location loc,
                                            int64_t count) {
  return createLinearForall(
      b, loc, count,
      gpu::GPUWarpMappingAttr::get(b.getContext(), gpu::MappingId::LinearDim0));
}
