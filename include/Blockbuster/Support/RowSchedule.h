//===- RowSchedule.h - How the row schedule lays out one row ----*- C++ -*-===//
//
// The one rule by which the row schedule of gpu-row-kernels (and of the
// statistics of decode blocks, which gpu-decode-gemv lowers with it) lays a
// row over a warp's lanes: lib/Codegen/GPU/RowKernels.cpp applies it to the
// rows it finds, and the block analysis (Analysis/DecodeGemv.h) to a decode
// kernel's statistics, so that block-select and the cost model give the
// decode schedule only to kernels gpu-decode-gemv takes. Header-only: the
// GPU code generator and the block analysis library do not depend on each
// other.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_SUPPORT_ROWSCHEDULE_H
#define BLOCKBUSTER_SUPPORT_ROWSCHEDULE_H

#include <cstdint>

namespace blockbuster {

constexpr int64_t kRowWarpSize = 32;
/// One load or store of a lane moves at most 16 bytes.
constexpr int64_t kRowVectorBytes = 16;
/// The most warps one row is split over: a block of 4 x 8 warps, the most
/// threads a block has.
constexpr int64_t kMaxWarpsPerRow = 8;
/// The most elements of a decode block's statistics row one lane keeps (one
/// warp per row of 4096 bf16: 16 loads of 16 bytes in flight).
constexpr int64_t kDecodeStatisticsPerLane = 128;

/// A row of `width` columns over P = `warpsPerRow` warps, V = `vector`
/// columns per lane and chunk.
struct RowLayout {
  int64_t width = 0;
  int64_t vector = 1;
  int64_t warpsPerRow = 1;
  /// E = N / 32P elements per lane.
  int64_t perLane() const { return width / (kRowWarpSize * warpsPerRow); }
  /// The columns of one chunk: V for each lane of the row's warps.
  int64_t chunk() const { return kRowWarpSize * warpsPerRow * vector; }
  /// Whether the row schedule takes the row: whole warps of columns, at
  /// most `maxPerLane` a lane.
  bool fits(int64_t maxPerLane) const {
    return width % kRowWarpSize == 0 && perLane() <= maxPerLane;
  }
};

/// The layout of a row of `width` columns whose narrowest element read from
/// global memory has `narrowestBytes`: 16 bytes of it per lane and chunk
/// where the width allows, narrower vectors (down to one element) where it
/// does not; a wide row split over several warps (up to kMaxWarpsPerRow,
/// while the chunks stay whole) so that a lane keeps at most `maxPerLane`
/// elements. `fits` says whether that was enough.
inline RowLayout chooseRowLayout(int64_t width, int64_t narrowestBytes,
                                 int64_t maxPerLane) {
  RowLayout layout;
  layout.width = width;
  layout.vector = kRowVectorBytes / narrowestBytes;
  while (layout.vector > 1 && width % (kRowWarpSize * layout.vector) != 0)
    layout.vector /= 2;
  while (layout.perLane() > maxPerLane &&
         layout.warpsPerRow < kMaxWarpsPerRow &&
         width % (2 * layout.chunk()) == 0)
    layout.warpsPerRow *= 2;
  return layout;
}

} // namespace blockbuster

#endif // BLOCKBUSTER_SUPPORT_ROWSCHEDULE_H
