//===- SliceReshapeFolding.cpp - Reshapes moved across static slices ------===//
//
// torch's `unbind` and `chunk` (a fused QKV projection split into q, k and
// v) are static slices followed by reshapes: a slice of extent 1 along the
// split dimension, a collapse_shape that drops it, and often an
// expand_shape that splits the heads out of a feature dimension. Reshape
// propagation stops at a slice, so the reshapes stayed between the
// projection and its readers and became views that cut the block program.
// Two rewrites let them through:
//
//  - a collapse_shape that only drops dimensions of extent 1 from a slice is
//    the rank-reducing slice itself (its readers then load the source at a
//    fixed index);
//  - an expand_shape of a slice that takes every dimension it splits whole
//    is a slice of the expanded source, and the expand_shape moves on to
//    the slice's producer, into which reshape propagation folds it;
//  - an expand_shape of a collapse_shape whose split pieces each multiply to
//    a dimension the collapse_shape merged is the collapse_shape of an
//    expand_shape: [1, S, B, D] -> [S, B*D] -> [S, B, H, Dh] is
//    [1, S, B, D] -> [1, S, B, H, Dh] -> [S, B, H, Dh], so the expansion
//    reaches the slice (torch's MHA merges batch and features, then splits
//    heads);
//  - a slice of a collapse_shape that cuts each merged dimension along one
//    of the dimensions it merged is a slice of the collapse_shape's source
//    (RoPE's rotate_half slices x[..., 32:] of a head dimension that
//    propagation has already split into (2, 32): a fixed index 1);
//  - a slice of an expand_shape that only inserts dimensions of extent 1
//    is a slice of the expand_shape's source (what the second rewrite
//    leaves when the expand_shape also added a unit dimension).
//
//===----------------------------------------------------------------------===//

#include "NormaliseLinalg.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// Whether `slice` is static with unit strides and keeps the source's rank.
bool isStaticFullRankSlice(tensor::ExtractSliceOp slice) {
  return slice.hasUnitStride() && slice.getOffsets().empty() &&
         slice.getSizes().empty() &&
         slice.getSourceType().getRank() == slice.getType().getRank();
}

/// Whether `shape` is `sizes` less some of its entries of extent 1.
bool isRankReductionOf(ArrayRef<int64_t> shape, ArrayRef<int64_t> sizes) {
  unsigned next = 0;
  for (int64_t size : sizes) {
    if (next < shape.size() && shape[next] == size)
      ++next;
    else if (size != 1)
      return false;
  }
  return next == shape.size();
}

/// collapse_shape(extract_slice(x)) whose groups each hold at most one
/// dimension of extent other than 1 -> a rank-reducing extract_slice(x).
struct FoldUnitCollapseIntoSlice
    : public OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto slice = collapse.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride() || !slice.getOffsets().empty() ||
        !slice.getSizes().empty())
      return rewriter.notifyMatchFailure(collapse, "not of a static slice");
    ArrayRef<int64_t> shape = slice.getType().getShape();
    for (ReassociationIndices group : collapse.getReassociationIndices())
      if (llvm::count_if(group, [&](int64_t d) { return shape[d] != 1; }) > 1)
        return rewriter.notifyMatchFailure(
            collapse, "merges two dimensions of extent above 1");
    if (!isRankReductionOf(collapse.getResultType().getShape(),
                           slice.getStaticSizes()))
      return rewriter.notifyMatchFailure(collapse, "not a rank reduction");
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        collapse, collapse.getResultType(), slice.getSource(),
        slice.getMixedOffsets(), slice.getMixedSizes(),
        slice.getMixedStrides());
    return success();
  }
};

/// expand_shape(extract_slice(x)) whose split dimensions the slice takes
/// whole -> extract_slice(expand_shape(x)).
struct BubbleExpandAboveSlice : public OpRewritePattern<tensor::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    auto slice = expand.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !isStaticFullRankSlice(slice) ||
        !expand.getResultType().hasStaticShape())
      return rewriter.notifyMatchFailure(expand,
                                         "not of a static full-rank slice");
    ArrayRef<int64_t> sourceShape = slice.getSourceType().getShape();
    ArrayRef<int64_t> expandedShape = expand.getResultType().getShape();
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    SmallVector<ReassociationIndices> reassociation =
        expand.getReassociationIndices();

    SmallVector<int64_t> newExpandedShape, newOffsets, newSizes;
    for (auto [dim, group] : llvm::enumerate(reassociation)) {
      if (group.size() == 1) {
        newExpandedShape.push_back(sourceShape[dim]);
        newOffsets.push_back(offsets[dim]);
        newSizes.push_back(sizes[dim]);
        continue;
      }
      if (offsets[dim] != 0 || sizes[dim] != sourceShape[dim])
        return rewriter.notifyMatchFailure(
            expand, "splits a dimension the slice does not take whole");
      for (int64_t d : group) {
        newExpandedShape.push_back(expandedShape[d]);
        newOffsets.push_back(0);
        newSizes.push_back(expandedShape[d]);
      }
    }
    Location loc = expand.getLoc();
    auto newExpandedType = RankedTensorType::get(
        newExpandedShape, slice.getSourceType().getElementType());
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, newExpandedType, slice.getSource(), reassociation);
    SmallVector<int64_t> strides(newSizes.size(), 1);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        expand, expand.getResultType(), expanded, ValueRange{}, ValueRange{},
        ValueRange{}, newOffsets, newSizes, strides);
    return success();
  }
};

/// extract_slice(expand_shape(x)) where the expand_shape only inserts
/// dimensions of extent 1 and the slice drops them -> extract_slice(x).
struct FoldSliceOfUnitExpand : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto expand = slice.getSource().getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand || !slice.hasUnitStride() || !slice.getOffsets().empty() ||
        !slice.getSizes().empty() || !expand.getResultType().hasStaticShape())
      return rewriter.notifyMatchFailure(slice, "not of a static expand_shape");
    ArrayRef<int64_t> expandedShape = expand.getResultType().getShape();
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    SmallVector<int64_t> newOffsets, newSizes;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      // The one source dimension of the group: its only dimension of extent
      // other than 1, else its first.
      auto kept = llvm::find_if(
          group, [&](int64_t d) { return expandedShape[d] != 1; });
      if (llvm::count_if(group, [&](int64_t d) {
            return expandedShape[d] != 1;
          }) > 1)
        return rewriter.notifyMatchFailure(
            slice, "the expand_shape splits a dimension");
      int64_t source = kept == group.end() ? group.front() : *kept;
      newOffsets.push_back(offsets[source]);
      newSizes.push_back(sizes[source]);
    }
    if (!isRankReductionOf(slice.getType().getShape(), newSizes))
      return rewriter.notifyMatchFailure(
          slice, "the slice keeps an inserted unit dimension");
    SmallVector<int64_t> strides(newSizes.size(), 1);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getType(), expand.getSrc(), ValueRange{}, ValueRange{},
        ValueRange{}, newOffsets, newSizes, strides);
    return success();
  }
};

/// expand_shape(collapse_shape(x)) -> collapse_shape(expand_shape(x)) when
/// each merged group's dimensions of extent above 1 are products of
/// consecutive runs of the dimensions its expansion splits it into.
struct BubbleExpandAboveCollapse
    : public OpRewritePattern<tensor::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    auto collapse = expand.getSrc().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !collapse.getSrcType().hasStaticShape() ||
        !expand.getResultType().hasStaticShape())
      return rewriter.notifyMatchFailure(expand, "not of a static collapse");
    ArrayRef<int64_t> sourceShape = collapse.getSrcType().getShape();
    ArrayRef<int64_t> resultShape = expand.getResultType().getShape();
    SmallVector<ReassociationIndices> merged =
        collapse.getReassociationIndices();
    SmallVector<ReassociationIndices> split = expand.getReassociationIndices();

    // The source expanded: per source dimension, its run of result
    // dimensions (a unit source dimension stays a unit dimension).
    SmallVector<int64_t> middleShape;
    SmallVector<ReassociationIndices> expandGroups, collapseGroups;
    SmallVector<int64_t> pendingUnits;
    for (auto [mergedGroup, splitGroup] : llvm::zip(merged, split)) {
      unsigned next = 0;
      unsigned firstCollapseGroup = collapseGroups.size();
      for (int64_t sourceDim : mergedGroup) {
        ReassociationIndices run;
        if (sourceShape[sourceDim] == 1) {
          pendingUnits.push_back(middleShape.size());
          run.push_back(middleShape.size());
          middleShape.push_back(1);
          expandGroups.push_back(run);
          continue;
        }
        int64_t product = 1;
        while (product < sourceShape[sourceDim] && next < splitGroup.size()) {
          product *= resultShape[splitGroup[next++]];
          ReassociationIndices group(pendingUnits.begin(), pendingUnits.end());
          pendingUnits.clear();
          group.push_back(middleShape.size());
          collapseGroups.push_back(group);
          run.push_back(middleShape.size());
          middleShape.push_back(resultShape[splitGroup[next - 1]]);
        }
        if (product != sourceShape[sourceDim])
          return rewriter.notifyMatchFailure(
              expand, "a merged dimension is not a product of a run");
        expandGroups.push_back(run);
      }
      // Result dimensions left over are of extent 1: the last source
      // dimension's run takes them.
      for (; next < splitGroup.size(); ++next) {
        if (resultShape[splitGroup[next]] != 1 || expandGroups.empty())
          return rewriter.notifyMatchFailure(expand, "extents do not match");
        expandGroups.back().push_back(middleShape.size());
        ReassociationIndices group(pendingUnits.begin(), pendingUnits.end());
        pendingUnits.clear();
        group.push_back(middleShape.size());
        collapseGroups.push_back(group);
        middleShape.push_back(1);
      }
      if (!pendingUnits.empty()) {
        if (collapseGroups.size() == firstCollapseGroup)
          return rewriter.notifyMatchFailure(expand, "a group of units only");
        collapseGroups.back().append(pendingUnits);
        llvm::sort(collapseGroups.back());
        pendingUnits.clear();
      }
    }
    // Only a real split moves: dimensions of extent 1 alone are the unit
    // folding's, which would move them back.
    if (llvm::none_of(expandGroups, [&](const ReassociationIndices &run) {
          return llvm::count_if(run, [&](int64_t d) {
                   return middleShape[d] != 1;
                 }) > 1;
        }))
      return rewriter.notifyMatchFailure(expand, "splits no dimension");
    Location loc = expand.getLoc();
    auto middleType = RankedTensorType::get(
        middleShape, expand.getResultType().getElementType());
    Value middle = tensor::ExpandShapeOp::create(
        rewriter, loc, middleType, collapse.getSrc(), expandGroups);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        expand, expand.getResultType(), middle, collapseGroups);
    return success();
  }
};

/// extract_slice(collapse_shape(x)) -> extract_slice(x) when every merged
/// dimension's range is, in x, a range of one of the dimensions it merged,
/// with the dimensions inside it taken whole and those outside it at a
/// fixed index, and the slice's result is still x's sizes less unit ones.
struct FoldSliceOfCollapse : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto collapse = slice.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !slice.hasUnitStride() || !slice.getOffsets().empty() ||
        !slice.getSizes().empty() || !collapse.getSrcType().hasStaticShape())
      return rewriter.notifyMatchFailure(slice, "not of a static collapse");
    ArrayRef<int64_t> sourceShape = collapse.getSrcType().getShape();
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    SmallVector<int64_t> newOffsets(sourceShape.size(), 0);
    SmallVector<int64_t> newSizes(sourceShape);
    for (auto [mergedDim, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      int64_t offset = offsets[mergedDim], size = sizes[mergedDim];
      // From the innermost dimension outwards: the first that the range,
      // in units of the dimensions inside it, fits in without wrapping.
      int64_t inner = 1;
      bool found = false;
      for (int64_t d : llvm::reverse(group)) {
        int64_t extent = sourceShape[d];
        if (offset % inner != 0 || size % inner != 0)
          break;
        int64_t start = offset / inner, count = size / inner;
        if (start % extent + count <= extent) {
          newOffsets[d] = start % extent;
          newSizes[d] = count;
          // Dimensions outside d: the fixed index of the range.
          int64_t outer = start / extent;
          for (int64_t o : llvm::reverse(group)) {
            if (o >= d)
              continue;
            newOffsets[o] = outer % sourceShape[o];
            newSizes[o] = 1;
            outer /= sourceShape[o];
          }
          found = true;
          break;
        }
        inner *= extent;
      }
      if (!found)
        return rewriter.notifyMatchFailure(
            slice, "a range wraps around a merged dimension");
    }
    if (!isRankReductionOf(slice.getType().getShape(), newSizes))
      return rewriter.notifyMatchFailure(
          slice, "the range keeps two merged dimensions");
    SmallVector<int64_t> strides(newSizes.size(), 1);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getType(), collapse.getSrc(), ValueRange{}, ValueRange{},
        ValueRange{}, newOffsets, newSizes, strides);
    return success();
  }
};

} // namespace

void blockbuster::populateSliceReshapeFoldingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldUnitCollapseIntoSlice, BubbleExpandAboveSlice,
               BubbleExpandAboveCollapse, FoldSliceOfCollapse,
               FoldSliceOfUnitExpand>(patterns.getContext());
}

void blockbuster::populateSliceUnitDimFoldingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldUnitCollapseIntoSlice, FoldSliceOfUnitExpand>(
      patterns.getContext());
}
