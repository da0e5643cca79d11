//===- FusionRewriter.h - The rewriter block-fuse runs rules with -*- C++
//-*-===//
//
// block-fuse's trace names the pattern that fired and says what it did. A
// C++ pattern has a debug name, and says what it did through
// describeRewrite; a PDL pattern has no name once compiled to bytecode, so
// nameGeneratedPatterns makes its rewrite record the name of the
// `pdl.pattern` it came from. Both land in the FusionRewriter the driver
// runs the rules with; under any other rewriter they are no-ops, so the
// rule patterns stay usable by other drivers.
//
//===----------------------------------------------------------------------===//

#ifndef BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONREWRITER_H
#define BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONREWRITER_H

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace blockbuster::block {

/// A PatternRewriter that keeps what the rewrite in progress said about
/// itself. While one is alive on a thread, describeRewrite and the
/// recorded PDL pattern names on that thread reach it when they name it.
class FusionRewriter final : public mlir::PatternRewriter {
public:
  explicit FusionRewriter(mlir::MLIRContext *context);
  ~FusionRewriter();
  FusionRewriter(const FusionRewriter &) = delete;
  FusionRewriter &operator=(const FusionRewriter &) = delete;

  /// Forgets what the last rewrite said.
  void clearRecord() {
    patternName.clear();
    description.clear();
  }
  /// The name a PDL pattern recorded, or empty.
  llvm::StringRef getRecordedPatternName() const { return patternName; }
  /// What the pattern said it did, or empty.
  llvm::StringRef getDescription() const { return description; }

  /// Whether the reasons patterns refuse with are read (block-fuse{explain}
  /// at a fixed point); building them costs strings on every failed match.
  void setExplaining(bool explaining) { this->explaining = explaining; }
  bool isExplaining() const { return explaining; }

  /// The FusionRewriter that `rewriter` is, or null.
  static FusionRewriter *lookup(mlir::PatternRewriter &rewriter);

private:
  friend void describeRewrite(mlir::PatternRewriter &, const llvm::Twine &);
  friend void recordPatternName(mlir::PatternRewriter &, llvm::StringRef);

  std::string patternName;
  std::string description;
  bool explaining = false;
  FusionRewriter *outer;
};

/// Says what the rewrite in progress did, for `block-fuse{trace}`: one
/// clause, e.g. "fused map at a.mlir:3:10 into its consumer map".
void describeRewrite(mlir::PatternRewriter &rewriter, const llvm::Twine &what);

/// False when `rewriter` is block-fuse's and nobody reads the reasons of
/// failed matches now; true otherwise.
bool wantsFailureReasons(mlir::PatternRewriter &rewriter);

/// Records the name of the PDL pattern whose rewrite is in progress.
void recordPatternName(mlir::PatternRewriter &rewriter, llvm::StringRef name);

/// Makes every named `pdl.pattern` of `patterns` record its name
/// (recordPatternName) first thing in its rewrite, through the native
/// rewrite `blockbuster.record_pattern_name`, which it registers.
void nameGeneratedPatterns(mlir::RewritePatternSet &patterns);

} // namespace blockbuster::block

#endif // BLOCKBUSTER_LIB_DIALECT_BLOCK_TRANSFORMS_FUSIONREWRITER_H
