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

#include <algorithm>
#include <cstdint>
#include <optional>

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

/// A row of `width` columns in vectors of `vector` columns per lane and
/// chunk, split over the fewest warps (up to kMaxWarpsPerRow, while the
/// chunks stay whole) that leave a lane at most `maxPerLane` elements.
/// `fits` says whether that was enough.
inline RowLayout splitRowOverWarps(int64_t width, int64_t vector,
                                   int64_t maxPerLane) {
  RowLayout layout;
  layout.width = width;
  layout.vector = vector;
  while (layout.perLane() > maxPerLane &&
         layout.warpsPerRow < kMaxWarpsPerRow &&
         width % (2 * layout.chunk()) == 0)
    layout.warpsPerRow *= 2;
  return layout;
}

/// The layout of a row of `width` columns whose narrowest element read from
/// global memory has `narrowestBytes`: 16 bytes of it per lane and chunk
/// where the width allows, narrower vectors (down to one element) where it
/// does not; a wide row split over several warps (splitRowOverWarps).
inline RowLayout chooseRowLayout(int64_t width, int64_t narrowestBytes,
                                 int64_t maxPerLane) {
  int64_t vector = kRowVectorBytes / narrowestBytes;
  while (vector > 1 && width % (kRowWarpSize * vector) != 0)
    vector /= 2;
  return splitRowOverWarps(width, vector, maxPerLane);
}

/// The layout row kernels give a row of `width` columns: chooseRowLayout's
/// where it fits; else the widest narrower vector whose chunks let more
/// warps share the row until a lane keeps at most `maxPerLane` elements.
/// Rows of 2560 bf16 at 32 a lane: 16-byte vectors leave 80 a lane on one
/// warp and 40 on two, and 2560 columns are not whole chunks of 4 warps x
/// 8; vectors of 4 elements on 4 warps keep 20 a lane (before, such rows
/// fell to the generic path: one block of shared-memory tiles for RMSNorm
/// M128 D2560's statistics, 1.1 ms on the H200). Where the first fits,
/// nothing changes; where none fits, the result is the first (which does
/// not fit).
inline RowLayout chooseFittingRowLayout(int64_t width, int64_t narrowestBytes,
                                        int64_t maxPerLane) {
  RowLayout widest = chooseRowLayout(width, narrowestBytes, maxPerLane);
  if (widest.fits(maxPerLane))
    return widest;
  for (int64_t vector = widest.vector / 2; vector >= 1; vector /= 2) {
    RowLayout layout = splitRowOverWarps(width, vector, maxPerLane);
    if (layout.fits(maxPerLane))
      return layout;
  }
  return widest;
}

/// Spreads `layout`, rows that fit (RowLayout::fits), over a block of
/// `warps` warps that reduces `rows` such rows before other work of the
/// block (a decode block's statistics, lowerRowPrefix); false where the
/// row schedule cannot. The warps take slots = min(rows, warps / P) rows
/// at a time. A row over P > 1 warps combines their totals across a block
/// barrier, which every warp of the block must reach (the warps it leaves
/// out would pass it and read the statistics early: session 12's wrong
/// LayerNorm + matmul M1 K5120, one row of 160 elements a lane on 2 of 4
/// warps). Where the rows leave warps out, P grows, while the chunks stay
/// whole and P <= kMaxWarpsPerRow, until slots x P is the block's warps
/// (M1 K5120 and K8192: one row on 4 warps). A row on one warp needs no
/// barrier and keeps its one warp (M1 K4096: the others wait at the
/// barrier after the statistics).
inline bool spreadRowsOverBlock(RowLayout &layout, int64_t rows,
                                int64_t warps) {
  if (layout.warpsPerRow == 1)
    return true;
  auto slots = [&] {
    return std::max<int64_t>(1, std::min(rows, warps / layout.warpsPerRow));
  };
  while (slots() * layout.warpsPerRow < warps &&
         layout.warpsPerRow < kMaxWarpsPerRow &&
         layout.width % (2 * layout.chunk()) == 0)
    layout.warpsPerRow *= 2;
  return slots() * layout.warpsPerRow == warps;
}

/// The layout of `rows` rows of `width` columns (the narrowest element read
/// from global memory `narrowestBytes`) that a block of `warps` warps
/// reduces before other work of the block (a decode block's statistics,
/// lowerRowPrefix), at most `maxPerLane` elements a lane; nothing where the
/// row schedule cannot hold them. chooseRowLayout's layout spread over the
/// block (spreadRowsOverBlock) where that holds them; else the widest
/// narrower vector whose chunks let the warps share the row: LayerNorm +
/// matmul M1 K4352 (136 elements a lane for one warp; 17 chunks of 256
/// columns, which 2 or 4 warps cannot share) takes vectors of 2 elements
/// on 4 warps, 34 a lane. The layouts row kernels take keep their vectors:
/// where the first fits, nothing changes.
inline std::optional<RowLayout>
choosePrefixLayout(int64_t rows, int64_t width, int64_t narrowestBytes,
                   int64_t maxPerLane, int64_t warps) {
  RowLayout widest = chooseRowLayout(width, narrowestBytes, maxPerLane);
  for (int64_t vector = widest.vector; vector >= 1; vector /= 2) {
    RowLayout layout = splitRowOverWarps(width, vector, maxPerLane);
    if (layout.fits(maxPerLane) && spreadRowsOverBlock(layout, rows, warps))
      return layout;
  }
  return std::nullopt;
}

} // namespace blockbuster

#endif // BLOCKBUSTER_SUPPORT_ROWSCHEDULE_H
