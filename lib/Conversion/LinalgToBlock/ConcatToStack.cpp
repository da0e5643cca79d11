//===- ConcatToStack.cpp - Concatenations as stacking operators -----------===//
//
// A block program's arrays are written whole by one kernel, so a
// concatenation is a kernel that stacks its pieces. Converted directly, that
// kernel writes the result with the cut dimension split into (groups,
// group) and a view gives it the result's shape; the view then separates
// the stacking kernel from its readers (RoPE's rotate_half cost a kernel
// per rotated tensor). Written instead in Linalg before reshape
// propagation, as an operator over the split shape followed by a
// collapse_shape, the collapse is folded into the readers like any other
// reshape (they iterate the cut dimension as (groups, group)), and fusion
// sees an ordinary producer.
//
//===----------------------------------------------------------------------===//

#include "NormaliseLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

using namespace mlir;

namespace {

/// The group size of a concatenation along `dim`: the greatest common
/// divisor of the piece sizes, so that every group lies in one piece.
int64_t getGroupSize(tensor::ConcatOp concat) {
  int64_t group = 0;
  for (Value input : concat.getInputs())
    group = std::gcd(group, cast<RankedTensorType>(input.getType())
                                .getDimSize(concat.getDim()));
  return group;
}

/// `tensor.concat dim(d)` of statically shaped pieces becomes a
/// `linalg.generic` over the result's shape with dimension d split into
/// (groups, group): each group is one piece or a static slice of one, read
/// along the group dimension, and the generic selects it by
/// `linalg.index` of the groups dimension; a `tensor.collapse_shape`
/// gives the result its shape.
struct ConcatToStack : public OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(concat.getResult().getType());
    if (!resultType.hasStaticShape() || concat.getInputs().size() < 2)
      return rewriter.notifyMatchFailure(concat, "dynamic shape or one piece");
    unsigned dim = concat.getDim();
    int64_t group = getGroupSize(concat);
    int64_t numGroups = group ? resultType.getDimSize(dim) / group : 0;
    if (numGroups < 2 || numGroups > blockbuster::kMaxStackedGroups)
      return rewriter.notifyMatchFailure(
          concat, "the pieces cut the dimension into too many groups");

    Location loc = concat.getLoc();
    unsigned rank = resultType.getRank();
    // Each group as a tensor of the result's shape with `group` at `dim`.
    SmallVector<Value> groups;
    for (Value input : concat.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      int64_t size = inputType.getDimSize(dim);
      if (size == group) {
        groups.push_back(input);
        continue;
      }
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t extent : inputType.getShape())
        sizes.push_back(rewriter.getIndexAttr(extent));
      sizes[dim] = rewriter.getIndexAttr(group);
      for (int64_t start = 0; start < size; start += group) {
        offsets[dim] = rewriter.getIndexAttr(start);
        groups.push_back(tensor::ExtractSliceOp::create(rewriter, loc, input,
                                                        offsets, sizes,
                                                        strides));
      }
    }

    SmallVector<int64_t> stackedShape(resultType.getShape());
    stackedShape[dim] = group;
    stackedShape.insert(stackedShape.begin() + dim, numGroups);
    Value init = tensor::EmptyOp::create(rewriter, loc, stackedShape,
                                         resultType.getElementType());
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> groupExprs;
    for (unsigned loop = 0; loop <= rank; ++loop)
      if (loop != dim)
        groupExprs.push_back(getAffineDimExpr(loop, context));
    SmallVector<AffineMap> maps(groups.size(),
                                AffineMap::get(rank + 1, 0, groupExprs,
                                               context));
    maps.push_back(rewriter.getMultiDimIdentityMap(rank + 1));
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    auto stack = linalg::GenericOp::create(
        rewriter, loc, init.getType(), groups, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value index = linalg::IndexOp::create(b, bodyLoc, dim);
          Value picked = args[groups.size() - 1];
          for (int64_t g = groups.size() - 2; g >= 0; --g) {
            Value position = arith::ConstantIndexOp::create(b, bodyLoc, g);
            Value isGroup = arith::CmpIOp::create(
                b, bodyLoc, arith::CmpIPredicate::eq, index, position);
            picked =
                arith::SelectOp::create(b, bodyLoc, isGroup, args[g], picked);
          }
          linalg::YieldOp::create(b, bodyLoc, picked);
        });

    SmallVector<ReassociationIndices> reassociation;
    for (unsigned d = 0; d < rank; ++d) {
      if (d < dim)
        reassociation.push_back({static_cast<int64_t>(d)});
      else if (d == dim)
        reassociation.push_back(
            {static_cast<int64_t>(d), static_cast<int64_t>(d + 1)});
      else
        reassociation.push_back({static_cast<int64_t>(d + 1)});
    }
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        concat, resultType, stack.getResult(0), reassociation);
    return success();
  }
};

} // namespace

void blockbuster::populateConcatToStackPatterns(RewritePatternSet &patterns) {
  patterns.add<ConcatToStack>(patterns.getContext());
}
