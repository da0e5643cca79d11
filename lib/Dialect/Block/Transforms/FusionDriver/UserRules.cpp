//===- UserRules.cpp - Fusion rules loaded at run time --------------------===//

#include "UserRules.h"

#include "Blockbuster/Dialect/Block/Transforms/FusionVocabulary.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace blockbuster::block;

/// A rewrite of the vocabulary that takes a link (getLinkConstraint) must
/// be handed that constraint's results and its root: it runs on them
/// without checking.
static LogicalResult verifyLink(pdl::ApplyNativeRewriteOp rewrite) {
  StringRef constraint = getLinkConstraint(rewrite.getName());
  if (constraint.empty())
    return success();
  OperandRange args = rewrite.getArgs();
  auto link = args.size() == 2
                  ? args[0].getDefiningOp<pdl::ApplyNativeConstraintOp>()
                  : nullptr;
  if (link && link.getName() == constraint && link.getArgs().size() == 1 &&
      link.getArgs()[0] == args[1])
    return success();
  return rewrite.emitError()
         << "block-fuse: native rewrite '" << rewrite.getName()
         << "' takes the results of constraint '" << constraint
         << "' and that constraint's root, " << rewrite.getName() << "("
         << constraint << "(root), root)";
}

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
    if (!known) {
      op->emitError() << "block-fuse: native " << kind << " '" << name
                      << "' is not in the fusion vocabulary "
                         "(Blockbuster/Dialect/Block/Transforms/"
                         "FusionVocabulary.h)";
      return WalkResult::interrupt();
    }
    if (auto rewrite = dyn_cast<pdl::ApplyNativeRewriteOp>(op);
        rewrite && failed(verifyLink(rewrite)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  patterns.add(std::move(pdl));
  return success();
}
