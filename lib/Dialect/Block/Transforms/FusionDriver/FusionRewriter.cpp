//===- FusionRewriter.cpp - The rewriter block-fuse runs rules with -------===//

#include "FusionRewriter.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace blockbuster::block;

/// The innermost live FusionRewriter of this thread. A pattern finds its
/// rewriter's record by comparing addresses, never by casting one it was
/// not handed by block-fuse.
static thread_local FusionRewriter *innermost = nullptr;

FusionRewriter::FusionRewriter(MLIRContext *context)
    : PatternRewriter(context), outer(innermost) {
  innermost = this;
}

FusionRewriter::~FusionRewriter() { innermost = outer; }

FusionRewriter *FusionRewriter::lookup(PatternRewriter &rewriter) {
  for (FusionRewriter *it = innermost; it; it = it->outer)
    if (static_cast<PatternRewriter *>(it) == &rewriter)
      return it;
  return nullptr;
}

void blockbuster::block::describeRewrite(PatternRewriter &rewriter,
                                         const Twine &what) {
  if (FusionRewriter *fusion = FusionRewriter::lookup(rewriter))
    fusion->description = what.str();
}

bool blockbuster::block::wantsFailureReasons(PatternRewriter &rewriter) {
  FusionRewriter *fusion = FusionRewriter::lookup(rewriter);
  return !fusion || fusion->isExplaining();
}

void blockbuster::block::recordPatternName(PatternRewriter &rewriter,
                                           StringRef name) {
  if (FusionRewriter *fusion = FusionRewriter::lookup(rewriter))
    fusion->patternName = name.str();
}

/// The native rewrite that the patterns' rewrites call.
static constexpr llvm::StringLiteral kRecordName =
    "blockbuster.record_pattern_name";

void blockbuster::block::nameGeneratedPatterns(RewritePatternSet &patterns) {
  PDLPatternModule &pdl = patterns.getPDLPatterns();
  ModuleOp module = pdl.getModule();
  if (!module)
    return;
  OpBuilder builder(module.getContext());
  module.walk([&](pdl::PatternOp pattern) {
    std::optional<StringRef> name = pattern.getSymName();
    pdl::RewriteOp rewrite = pattern.getRewriter();
    // An external rewrite (`pdl.rewrite with "fn"`) has no body to add to:
    // its trace line then has no pattern name.
    if (!name || rewrite.getBodyRegion().empty())
      return;
    builder.setInsertionPointToStart(&rewrite.getBodyRegion().front());
    Value nameValue = pdl::AttributeOp::create(builder, pattern.getLoc(),
                                               builder.getStringAttr(*name));
    pdl::ApplyNativeRewriteOp::create(builder, pattern.getLoc(), TypeRange(),
                                      kRecordName, ValueRange{nameValue});
  });
  pdl.registerRewriteFunction(
      kRecordName, [](PatternRewriter &rewriter, Attribute name) {
        recordPatternName(rewriter, cast<StringAttr>(name).getValue());
      });
}
