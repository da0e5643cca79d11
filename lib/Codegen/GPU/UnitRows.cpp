//===- UnitRows.cpp - A unit rows dimension for vector blocks -------------===//

#include "UnitRows.h"

#include "TileContractions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

/// The array of a view `v` of the activation: the source of a
/// `memref.collapse_shape` in the host function of a static [1, .., 1, K]
/// array into [K], else null.
Value activationArray(Value v) {
  auto collapse = v.getDefiningOp<memref::CollapseShapeOp>();
  if (!collapse || !isa<func::FuncOp>(collapse->getParentOp()))
    return {};
  MemRefType source = collapse.getSrcType();
  if (collapse.getResultType().getRank() != 1 || source.getRank() < 2 ||
      !source.hasStaticShape() ||
      llvm::any_of(source.getShape().drop_back(),
                   [](int64_t d) { return d != 1; }))
    return {};
  return collapse.getSrc();
}

bool isWorkgroupAlloc(Operation *op) {
  auto alloc = dyn_cast<memref::AllocOp>(op);
  return alloc &&
         gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(alloc.getType());
}

/// `view` of the activation's collapse as the same view of the array, its
/// first unit dimension kept (the others dropped): [s] becomes [1, s], a
/// rank-reduced [] (one element) [1].
Value rowView(RewriterBase &b, memref::SubViewOp view, Value array) {
  auto arrayType = cast<MemRefType>(array.getType());
  int64_t units = arrayType.getRank() - 1;
  SmallVector<OpFoldResult> offsets(units, b.getIndexAttr(0)),
      sizes(units, b.getIndexAttr(1)), strides(units, b.getIndexAttr(1));
  llvm::append_range(offsets, view.getMixedOffsets());
  llvm::append_range(sizes, view.getMixedSizes());
  llvm::append_range(strides, view.getMixedStrides());
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, view.getType().getShape());
  auto type = memref::SubViewOp::inferRankReducedResultType(
      shape, arrayType, offsets, sizes, strides);
  return memref::SubViewOp::create(b, view.getLoc(), type, array, offsets,
                                   sizes, strides);
}

/// `buffer` with a leading unit dimension, as a view: for a buffer that
/// code after the rewritten ops still uses as it is.
Value expandedView(RewriterBase &b, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, type.getShape());
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d)
    groups.push_back(d == 0 ? ReassociationIndices{0, 1}
                            : ReassociationIndices{d + 1});
  return memref::ExpandShapeOp::create(b, buffer.getLoc(), shape, buffer,
                                       groups);
}

/// `op` over the buffers of `rows` (old buffer -> the same with a leading
/// unit dimension), with a leading parallel loop of extent 1 that indexes
/// them; its body moves over, `linalg.index` shifted by one.
void rebuildGeneric(RewriterBase &b, linalg::GenericOp op,
                    const DenseMap<Value, Value> &rows) {
  MLIRContext *ctx = op.getContext();
  unsigned loops = op.getNumLoops() + 1;
  SmallVector<Value> ins, outs;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand).shiftDims(1);
    SmallVector<AffineExpr> results;
    Value v = operand.get();
    if (Value row = rows.lookup(v)) {
      results.push_back(getAffineDimExpr(0, ctx));
      v = row;
    }
    llvm::append_range(results, map.getResults());
    maps.push_back(AffineMap::get(loops, 0, results, ctx));
    (op.isDpsInit(&operand) ? outs : ins).push_back(v);
  }
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel};
  llvm::append_range(iterators, op.getIteratorTypesArray());
  b.setInsertionPoint(op);
  auto rowed = linalg::GenericOp::create(b, op.getLoc(), TypeRange(), ins, outs,
                                         maps, iterators);
  rowed->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  b.inlineRegionBefore(op.getRegion(), rowed.getRegion(),
                       rowed.getRegion().end());
  for (auto index :
       llvm::to_vector(rowed.getBody()->getOps<linalg::IndexOp>())) {
    b.setInsertionPoint(index);
    b.replaceOpWithNewOp<linalg::IndexOp>(index, index.getDim() + 1);
  }
  b.eraseOp(op);
}

} // namespace

LogicalResult blockbuster::addUnitRows(RewriterBase &b,
                                       ArrayRef<Operation *> ops,
                                       std::string &reason) {
  auto fail = [&](const Twine &why) {
    reason = why.str();
    return failure();
  };
  if (ops.empty())
    return fail("no ops");
  Block *body = ops.front()->getBlock();
  DenseSet<Operation *> top(ops.begin(), ops.end());
  auto inside = [&](Operation *user) {
    Operation *ancestor = body->findAncestorOpInBlock(*user);
    return ancestor && top.contains(ancestor);
  };

  // The buffers that get the unit dimension: the block's workgroup tiles
  // and the views of the activation, in program order. A linalg.fill or
  // linalg.generic among the ops may use them; code after the ops (the
  // split's combine, the epilogue) only the buffers allocated before it.
  SmallVector<Operation *> buffers;
  SetVector<Operation *> users;
  auto refuse = [&](const Twine &why) {
    reason = why.str();
    return WalkResult::interrupt();
  };
  for (Operation *op : ops) {
    WalkResult walk = op->walk([&](Operation *nested) {
      auto view = dyn_cast<memref::SubViewOp>(nested);
      if (!isWorkgroupAlloc(nested) &&
          !(view && activationArray(view.getSource())))
        return WalkResult::advance();
      buffers.push_back(nested);
      for (Operation *user : nested->getResult(0).getUsers()) {
        if (!inside(user)) {
          if (view)
            return refuse("a view of the activation used after the dot loop");
          continue;
        }
        auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
        if (!isa<linalg::FillOp, linalg::GenericOp>(user) ||
            !linalgOp.hasPureBufferSemantics())
          return refuse("a tile or view of the row used by an op other "
                        "than linalg.fill and linalg.generic: " +
                        user->getName().getStringRef());
        users.insert(user);
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  // The products' vector is one of them: the dot becomes x[r, k] W[k, n].
  bool products = false;
  for (Operation *op : ops) {
    WalkResult walk = op->walk([&](linalg::GenericOp generic) {
      if (!isTileVectorMatrixProduct(generic))
        return WalkResult::advance();
      products = true;
      Operation *vector = generic.getDpsInputs()[0].getDefiningOp();
      return vector && llvm::is_contained(buffers, vector)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return fail("a vector-matrix product whose vector is neither a tile "
                  "of the block nor a view of a [1, K] activation");
  }
  if (!products)
    return fail("no vector-matrix product");

  DenseMap<Value, Value> rows;
  SmallVector<Operation *> replaced;
  for (Operation *buffer : buffers) {
    Value old = buffer->getResult(0), row;
    if (auto view = dyn_cast<memref::SubViewOp>(buffer)) {
      b.setInsertionPoint(view);
      row = rowView(b, view, activationArray(view.getSource()));
      replaced.push_back(view);
    } else if (llvm::all_of(old.getUsers(), inside)) {
      auto alloc = cast<memref::AllocOp>(buffer);
      MemRefType type = alloc.getType();
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, type.getShape());
      b.setInsertionPoint(alloc);
      row = memref::AllocOp::create(
          b, alloc.getLoc(),
          MemRefType::get(shape, type.getElementType(), AffineMap(),
                          type.getMemorySpace()),
          alloc.getAlignmentAttr());
      replaced.push_back(alloc);
    } else {
      b.setInsertionPointAfter(buffer);
      row = expandedView(b, old);
    }
    rows[old] = row;
  }
  for (Operation *user : users) {
    if (auto fill = dyn_cast<linalg::FillOp>(user)) {
      b.setInsertionPoint(fill);
      b.replaceOpWithNewOp<linalg::FillOp>(fill, fill.getInputs(),
                                           rows.lookup(fill.getOutputs()[0]));
      continue;
    }
    rebuildGeneric(b, cast<linalg::GenericOp>(user), rows);
  }
  for (Operation *buffer : llvm::reverse(replaced))
    b.eraseOp(buffer);
  return success();
}

SmallVector<Operation *>
blockbuster::opsUpToVectorMatrixLoop(scf::ForallOp grid) {
  Block *body = grid.getBody();
  scf::ForOp dotLoop;
  bool vectorMatrix = false;
  for (auto loop : body->getOps<scf::ForOp>())
    for (auto generic : loop.getBody()->getOps<linalg::GenericOp>()) {
      bool product = isTileVectorMatrixProduct(generic);
      if (product || matchTileContraction(generic)) {
        dotLoop = loop;
        vectorMatrix = product;
      }
    }
  SmallVector<Operation *> ops;
  if (!vectorMatrix)
    return ops;
  for (Operation &op : *body) {
    ops.push_back(&op);
    if (&op == dotLoop)
      break;
  }
  return ops;
}
