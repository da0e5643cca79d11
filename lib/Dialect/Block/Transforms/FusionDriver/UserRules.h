//===- UserRules.h - Fusion rules loaded at run time ------------*- C++ -*-===//
//
// block-fuse{rules=FILE}: a file of PDL patterns (`pdl.pattern` ops, as
// `mlir-pdll -x=mlir` compiles a PDLL file that includes Rules/Common.pdll)
// written against the fusion vocabulary, run as one more rule set of the
// ordered driver.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_USERRULES_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_USERRULES_H

#include "mlir/IR/PatternMatch.h"

namespace blockbuster::block {

/// Adds the patterns of the PDL file at `path` to `patterns`, with the
/// fusion vocabulary registered for them. Fails with an error naming the
/// file (and the pattern and native function where one is at fault) when
/// the file cannot be read or parsed, holds no `pdl.pattern`, or calls a
/// native constraint or rewrite the vocabulary does not have.
mlir::LogicalResult loadUserRules(mlir::MLIRContext *context,
                                  llvm::StringRef path,
                                  mlir::RewritePatternSet &patterns);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_USERRULES_H
