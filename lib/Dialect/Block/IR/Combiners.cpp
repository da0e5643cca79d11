//===- Combiners.cpp - Building the ops of a combiner kind ----------------===//

#include "Blockbuster/Dialect/Block/IR/Combiners.h"

using namespace mlir;
using namespace blockbuster::block;

Value blockbuster::block::createCombine(OpBuilder &builder, Location loc,
                                        CombinerKind kind, Value lhs,
                                        Value rhs) {
  switch (kind) {
  case CombinerKind::Add: return AddOp::create(builder, loc, lhs, rhs);
  case CombinerKind::Mul: return MulOp::create(builder, loc, lhs, rhs);
  case CombinerKind::Max: return MaxOp::create(builder, loc, lhs, rhs);
  case CombinerKind::Min: return MinOp::create(builder, loc, lhs, rhs);
  }
  llvm_unreachable("unknown combiner");
}
