//===- DecodeGemvBlocks.cpp - Blocks of all rows for decode GEMVs ---------===//
//
// gpu-decode-gemv streams the weights of a decode kernel (at most 16
// activation rows against a weight matrix) into registers, 64 columns per
// warp and k16 step, every row of the block in one mma.sync m16 tile. A
// block of fewer rows than the kernel has reads the same weights once per
// row block (block-select's choice at M16, 4 rows: four times the weight
// traffic, 0.054 ms against 0.031 with all 16 rows on the H100,
// docs/performance.md "Session 9: decode GEMV"), and a block of more than
// 64 columns leaves fewer blocks for the SMs. The cost model knows the
// schedule's serial work (Analysis/DecodeGemv.h) only at those blocks, which
// block-select's descent need not reach from its starts; this pass writes
// them into the axis table before block-select, as
// block-warpgroup-gemm-blocks does for the wgmma GEMM.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Dialect/Block/Analysis/DecodeGemv.h"
#include "Blockbuster/Dialect/Block/IR/Block.h"
#include "Blockbuster/Dialect/Block/Transforms/Passes.h"
#include "AxisTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "block-decode-gemv-blocks"

namespace blockbuster::block {
#define GEN_PASS_DEF_BLOCKDECODEGEMVBLOCKS
#include "Blockbuster/Dialect/Block/Transforms/Passes.h.inc"
} // namespace blockbuster::block

using namespace mlir;
using namespace blockbuster::block;

namespace {

/// gpu-decode-gemv takes only whole tiles (a partial edge tile keeps the
/// generic path, slower with these blocks than with block-select's): k
/// must be a multiple of every k block block-select takes for decode
/// programs (powers of two up to 256). k itself is left to block-select:
/// binding it (256) made convertAndSelect prefer 3- and 4-kernel forms of
/// norm + matmul at M16.
constexpr int64_t kMaxBlockK = 256;

struct BlockDecodeGemvBlocks
    : blockbuster::block::impl::BlockDecodeGemvBlocksBase<
          BlockDecodeGemvBlocks> {
  using Base::Base;

  void runOnOperation() override {
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      llvm::StringMap<AxisAttr> byName;
      for (AxisAttr axis : program.getAxisTable())
        byName[axis.getName().getValue()] = axis;
      auto open = [&](StringRef name) {
        AxisAttr axis = byName.lookup(name);
        return axis && axis.isTiled() && !axis.getBlockSize();
      };
      // Every GEMV dot's rows get one block of all rows (up to 16), its
      // columns blocks of 64; only where the blocks tile every axis whole
      // (M up to 16 or a multiple of 16, or no rows axis at M1; N a
      // multiple of 64, K of 256). An
      // axis that would get two sizes leaves the program to block-select.
      llvm::StringMap<int64_t> sizes;
      bool conflict = false;
      auto bind = [&](StringRef name, int64_t size) {
        auto [it, inserted] = sizes.try_emplace(name, size);
        conflict |= !inserted && it->second != size;
      };
      program.walk([&](DotOp dot) {
        auto map = dot->getParentOfType<MapOp>();
        if (!map)
          return;
        auto axes = matchGemvDot(map, dot);
        if (!axes)
          return;
        // A vector-matrix product (no rows axis) is one row: its columns
        // alone get blocks.
        StringRef m = axes->rows ? axes->rows.getValue() : StringRef(),
                  n = axes->columns.getValue(), k = axes->depth.getValue();
        AxisAttr rows = byName.lookup(m), columns = byName.lookup(n),
                 depth = byName.lookup(k);
        if ((axes->rows &&
             (!open(m) || rows.getExtent() > kDecodeGemvMaxRows ||
              (rows.getExtent() > kDecodeGemvTileRows &&
               rows.getExtent() % kDecodeGemvTileRows != 0))) ||
            !open(n) || columns.getExtent() % kDecodeGemvBlockColumns != 0 ||
            depth.getExtent() % kMaxBlockK != 0 ||
            !decodeGemvLowers(
                map, dot,
                axes->rows ? std::min(rows.getExtent(), kDecodeGemvTileRows)
                           : 1,
                [&](StringAttr axis) {
                  AxisAttr attr = byName.lookup(axis.getValue());
                  return attr ? attr.getExtent() : int64_t(0);
                }))
          return;
        if (axes->rows)
          bind(m, std::min(rows.getExtent(), kDecodeGemvTileRows));
        bind(n, kDecodeGemvBlockColumns);
      });
      if (conflict || sizes.empty()) {
        LLVM_DEBUG(llvm::dbgs() << "no decode GEMV blocks for "
                                << program.getSymName() << "\n");
        continue;
      }
      setBlockSizes(program, sizes);
    }
  }
};

} // namespace
