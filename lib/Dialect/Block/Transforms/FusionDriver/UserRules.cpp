//===- UserRules.cpp - Fusion rules loaded at run time --------------------===//

#include "UserRules.h"

#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

LogicalResult blockbuster::block::loadUserRules(MLIRContext *context,
                                                StringRef path,
                                                RewritePatternSet &patterns) {
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path, ParserConfig(context));
  if (!module)
    return emitError(UnknownLoc::get(context))
           << "block-fuse: cannot load rules from '" << path
           << "' (a file of pdl.pattern ops, e.g. mlir-pdll -x=mlir output)";
  if (module->getOps<pdl::PatternOp>().empty())
    return emitError(module->getLoc())
           << "block-fuse: '" << path << "' holds no pdl.pattern";
  PDLPatternModule pdl(std::move(module));
  registerFusionVocabulary(pdl);
  // PDL's bytecode takes every native function it calls from the
  // registered ones; one that is not there must be an error here, before
  // the bytecode is built.
  WalkResult result = pdl.getModule().walk([&](Operation *op) {
    StringRef kind, name;
    bool known = true;
    if (auto constraint = dyn_cast<pdl::ApplyNativeConstraintOp>(op)) {
      kind = "constraint";
      name = constraint.getName();
      known = pdl.getConstraintFunctions().contains(name);
    } else if (auto rewrite = dyn_cast<pdl::ApplyNativeRewriteOp>(op)) {
      kind = "rewrite";
      name = rewrite.getName();
      known = pdl.getRewriteFunctions().contains(name);
    } else if (auto rewrite = dyn_cast<pdl::RewriteOp>(op);
               rewrite && rewrite.getName()) {
      kind = "rewrite";
      name = *rewrite.getName();
      known = pdl.getRewriteFunctions().contains(name);
    }
    if (known)
      return WalkResult::advance();
    op->emitError() << "block-fuse: native " << kind << " '" << name
                    << "' is not in the fusion vocabulary "
                       "(Blockbuster/Dialect/Block/Transforms/"
                       "FusionVocabulary.h)";
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  patterns.add(std::move(pdl));
  return success();
}
