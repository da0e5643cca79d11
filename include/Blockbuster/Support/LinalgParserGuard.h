//===- LinalgParserGuard.h - Input checks before MLIR 22.1's parser -*- C++ -*-===//
//
// MLIR 22.1's custom parsers of linalg.transpose, linalg.broadcast and
// linalg.reduce read their `permutation = [...]` / `dimensions = [...]` list
// with DenseI64ArrayAttr::parse and store the result without checking it: a
// malformed list (`permutation = x`, `[1, 0`, `[1.5]`, an integer beyond
// int64) reports its error and then segfaults in NamedAttrList::set, in the
// stock mlir-opt too (docs/Fuzzing.md). Blockbuster's tools check those lists
// in the text before the parser sees it, so such input gets an error and a
// non-zero exit instead of a crash.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_SUPPORT_LINALGPARSERGUARD_H
#define BLOCKBUSTER_SUPPORT_LINALGPARSERGUARD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace blockbuster {

/// Emits an error (through `context`'s diagnostic engine, at the list's
/// location in the main buffer of `sourceMgr`) for the first malformed
/// integer list of a custom-form linalg.transpose, linalg.broadcast or
/// linalg.reduce, and fails; succeeds on everything else, valid or not (the
/// parser reports the rest).
mlir::LogicalResult checkLinalgIntegerLists(const llvm::SourceMgr &sourceMgr,
                                            mlir::MLIRContext *context);

/// parseSourceFile<ModuleOp> behind checkLinalgIntegerLists.
mlir::OwningOpRef<mlir::ModuleOp>
parseGuardedSourceFile(llvm::SourceMgr &sourceMgr,
                       const mlir::ParserConfig &config);

} // namespace blockbuster

#endif // BLOCKBUSTER_SUPPORT_LINALGPARSERGUARD_H
