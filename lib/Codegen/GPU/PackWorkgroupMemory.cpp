//===- PackWorkgroupMemory.cpp - Workgroup allocs into dynamic smem -------===//
//
// MLIR 22 lowers memref.alloc in workgroup memory inside a kernel to a
// per-thread malloc (docs/design/05-gpu-lowering-notes.md, gotcha 2), and
// static workgroup attributions stop at 48 KB. So every workgroup allocation of
// a launch gets a fixed offset in the launch's dynamic shared memory, and
// becomes a memref.view of it. Partial edge blocks make tile sizes dynamic;
// their upper bound (the full block) comes from the value bounds analysis.
//
// A buffer takes as many bytes per element as the LLVM lowering's loads and
// stores step by, which the data layout gives: an i1 mask tile takes a whole
// byte per element (LLVM stores i1 as i8), and an index tile (block.iota)
// takes the index width, 64 bits unless a DLTI spec says otherwise.
//
// Allocations are placed first-fit, largest first, and two allocations share
// bytes only when their lifetimes do not overlap: from the allocation to the
// barrier after its last use, in program order, where a use inside a loop
// that the allocation is outside of lasts for the whole loop.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Codegen/GPU/Passes.h"

#include "TileBounds.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace blockbuster {
#define GEN_PASS_DEF_GPUPACKWORKGROUPMEMORY
#include "Blockbuster/Codegen/GPU/Passes.h.inc"
} // namespace blockbuster

using namespace mlir;

namespace {

bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  unsigned first = 0, last = 0; // lifetime in program order
  int64_t offset = 0;
  int64_t align = 0; // of the offset
};

struct GPUPackWorkgroupMemory
    : blockbuster::impl::GPUPackWorkgroupMemoryBase<GPUPackWorkgroupMemory> {
  using Base::Base;

  /// The location of `op`, or of the closest enclosing op that has one:
  /// allocations made by bufferization may have none, and a diagnostic must
  /// point at the program.
  static Location getKnownLocation(Operation *op) {
    for (Operation *at = op; at; at = at->getParentOp())
      if (!isa<UnknownLoc>(at->getLoc()))
        return at->getLoc();
    return op->getLoc();
  }

  FailureOr<int64_t> upperBoundBytes(memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    int64_t elements = 1;
    unsigned dynamicIndex = 0;
    for (int64_t size : type.getShape()) {
      if (ShapedType::isDynamic(size)) {
        Value dim = alloc.getDynamicSizes()[dynamicIndex++];
        std::optional<int64_t> bound = blockbuster::constantUpperBound(dim);
        if (!bound)
          return emitError(getKnownLocation(alloc),
                           "cannot bound the size of this workgroup "
                           "buffer: dimension ")
                 << dynamicIndex - 1 << " has no constant upper bound";
        size = std::max<int64_t>(*bound, 0);
      }
      elements *= size;
    }
    int64_t elementBytes =
        DataLayout::closest(alloc).getTypeSize(type.getElementType());
    return elements * elementBytes;
  }

  LogicalResult pack(gpu::LaunchOp launch) {
    // Program order: every op of the launch body numbered in pre-order, and
    // the last number inside each op (a loop spans its whole body).
    DenseMap<Operation *, unsigned> begin, end;
    unsigned counter = 0;
    launch.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { begin[op] = counter++; });
    launch.getBody().walk<WalkOrder::PostOrder>([&](Operation *op) {
      unsigned last = begin[op];
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (!block.empty())
            last = std::max(last, end[&block.back()]);
      end[op] = last;
    });

    SmallVector<Buffer> buffers;
    WalkResult walk = launch.getBody().walk([&](memref::AllocOp alloc) {
      if (!isWorkgroup(alloc.getType()))
        return WalkResult::advance();
      if (!alloc.getType().getLayout().isIdentity()) {
        alloc.emitError("workgroup buffers with a layout are not supported");
        return WalkResult::interrupt();
      }
      FailureOr<int64_t> bytes = upperBoundBytes(alloc);
      if (failed(bytes))
        return WalkResult::interrupt();
      Buffer buffer;
      buffer.alloc = alloc;
      buffer.bytes = llvm::alignTo(*bytes, alignment);
      // A larger alignment asked for by the allocation (1024 bytes for the
      // 128-byte swizzled tiles that TMA writes) is kept.
      buffer.align = std::max<int64_t>(alignment, alloc.getAlignment().value_or(0));
      // The lifetime ends with the last op of the allocation's block that
      // contains a use (a use inside a loop keeps the buffer for the whole
      // loop), followed through views.
      Block *home = alloc->getBlock();
      Operation *lastUse = alloc;
      SmallVector<Value> worklist{alloc.getResult()};
      while (!worklist.empty()) {
        Value v = worklist.pop_back_val();
        for (Operation *user : v.getUsers()) {
          Operation *ancestor = home->findAncestorOpInBlock(*user);
          if (ancestor && lastUse->isBeforeInBlock(ancestor))
            lastUse = ancestor;
          if (auto view = dyn_cast<ViewLikeOpInterface>(user))
            if (view.getViewSource() == v)
              llvm::append_range(worklist, user->getResults());
        }
      }
      // Its bytes are free for reuse only once every thread is past the last
      // use: after the next barrier.
      Operation *release = lastUse;
      while (release->getNextNode() && !isa<gpu::BarrierOp>(release))
        release = release->getNextNode();
      buffer.first = begin[alloc];
      buffer.last = end[release];
      buffers.push_back(buffer);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (buffers.empty())
      return success();

    // First fit, largest first (ties in program order: deterministic).
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers)
      order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) {
      return a->bytes > b->bytes;
    });
    SmallVector<Buffer *> placed;
    int64_t total = 0;
    for (Buffer *b : order) {
      SmallVector<std::pair<int64_t, int64_t>> taken;
      for (Buffer *p : placed)
        if (p->first <= b->last && b->first <= p->last)
          taken.push_back({p->offset, p->offset + p->bytes});
      llvm::sort(taken);
      int64_t offset = 0;
      for (auto [begin, end] : taken) {
        if (offset + b->bytes <= begin)
          break;
        offset = llvm::alignTo(std::max(offset, end), b->align);
      }
      b->offset = offset;
      total = std::max(total, offset + b->bytes);
      placed.push_back(b);
    }
    if (total > limit)
      return launch.emitError("the block's tiles need ")
             << total << " bytes of shared memory, more than the "
             << limit.getValue()
             << " a block can have; choose smaller block sizes";

    IRRewriter rewriter(launch.getContext());
    rewriter.setInsertionPointToStart(&launch.getBody().front());
    auto workgroup = gpu::AddressSpaceAttr::get(launch.getContext(),
                                                gpu::AddressSpace::Workgroup);
    Value raw = gpu::DynamicSharedMemoryOp::create(
        rewriter, launch.getLoc(),
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    for (Buffer &b : buffers) {
      rewriter.setInsertionPoint(b.alloc);
      Value offset =
          arith::ConstantIndexOp::create(rewriter, b.alloc.getLoc(), b.offset);
      for (Operation *user : llvm::make_early_inc_range(b.alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          rewriter.eraseOp(user);
      rewriter.replaceOpWithNewOp<memref::ViewOp>(
          b.alloc, b.alloc.getType(), raw, offset, b.alloc.getDynamicSizes());
    }
    rewriter.setInsertionPoint(launch);
    Value size = arith::ConstantIntOp::create(rewriter, launch.getLoc(),
                                              rewriter.getI32Type(), total);
    rewriter.modifyOpInPlace(launch, [&] {
      launch.getDynamicSharedMemorySizeMutable().assign(size);
    });
    return success();
  }

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(pack(launch)))
        return signalPassFailure();
  }
};

} // namespace
