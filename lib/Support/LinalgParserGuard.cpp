//===- LinalgParserGuard.cpp - Input checks before MLIR 22.1's parser -----===//
//
// A scanner that knows just enough of MLIR's lexical grammar (comments,
// strings, identifiers, brackets) to find custom-form linalg.transpose,
// linalg.broadcast and linalg.reduce ops and check their integer list the
// way DenseI64ArrayAttr::parse reads it (LinalgParserGuard.h says why).
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Support/LinalgParserGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <limits>

using namespace mlir;
using llvm::StringRef;

namespace {
class Scanner {
public:
  Scanner(const llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), context(context),
        text(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                 ->getBuffer()) {}

  /// Walks the tokens, checking the list of every op the guard knows.
  LogicalResult run() {
    while (true) {
      skipTrivia();
      if (atEnd())
        return success();
      char c = peek();
      if (c == '"') {
        skipString();
      } else if (StringRef("%@^#!").contains(c)) {
        // A prefixed name (%value, #attr, ...): not an op name.
        ++pos;
        if (peek() == '"')
          skipString();
        while (isSuffixIdChar(peek()))
          ++pos;
      } else if (llvm::isAlpha(c) || c == '_') {
        size_t start = pos;
        while (isBareIdChar(peek()))
          ++pos;
        StringRef id = text.slice(start, pos);
        if (id == "linalg.transpose" &&
            failed(checkOp(id, "permutation")))
          return failure();
        if ((id == "linalg.broadcast" || id == "linalg.reduce") &&
            failed(checkOp(id, "dimensions")))
          return failure();
      } else if (llvm::isDigit(c)) {
        // A number, whose letters (1e-5, 0x1F, 4x3) are not identifiers.
        while (llvm::isAlnum(peek()) || peek() == '.')
          ++pos;
      } else {
        ++pos;
      }
    }
  }

private:
  static bool isBareIdChar(char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  }
  static bool isSuffixIdChar(char c) { return isBareIdChar(c) || c == '-'; }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  /// Whitespace and `//` comments.
  void skipTrivia() {
    while (!atEnd()) {
      char c = text[pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos;
      } else if (text.substr(pos).starts_with("//")) {
        pos = std::min(text.find('\n', pos), text.size());
      } else {
        return;
      }
    }
  }

  /// A string literal from its opening quote (escapes included; the lexer
  /// ends an unterminated one at the line's end).
  void skipString() {
    ++pos;
    while (!atEnd()) {
      char c = text[pos++];
      if (c == '\\' && !atEnd())
        ++pos;
      else if (c == '"' || c == '\n')
        return;
    }
  }

  /// From an opening bracket to its match, over strings and comments;
  /// false at the end of the text. In `<...>` an arrow's `>` does not close.
  bool skipBalanced() {
    char open = peek();
    char close = open == '(' ? ')' : open == '{' ? '}' : '>';
    int depth = 0;
    while (!atEnd()) {
      char c = text[pos];
      if (c == '"') {
        skipString();
        continue;
      }
      if (text.substr(pos).starts_with("//")) {
        skipTrivia();
        continue;
      }
      ++pos;
      if (c == open)
        ++depth;
      else if (c == close && !(close == '>' && pos >= 2 && text[pos - 2] == '-') &&
               --depth == 0)
        return true;
    }
    return false;
  }

  bool consumeKeyword(StringRef keyword) {
    StringRef rest = text.substr(pos);
    if (!rest.starts_with(keyword) ||
        (rest.size() > keyword.size() && isBareIdChar(rest[keyword.size()])))
      return false;
    pos += keyword.size();
    return true;
  }

  /// What the op's parser reads before its list: an optional payload
  /// `{op attrs}` (linalg.reduce), `<properties>` and `{attributes}`,
  /// `ins(...)`, `outs(...)`; then `NAME =` and the list. Anything else the
  /// parser rejects by itself.
  LogicalResult checkOp(StringRef opName, StringRef listName) {
    skipTrivia();
    while (peek() == '{' || peek() == '<') {
      if (!skipBalanced())
        return success();
      skipTrivia();
    }
    for (StringRef keyword : {"ins", "outs"}) {
      if (!consumeKeyword(keyword))
        continue;
      skipTrivia();
      if (peek() != '(' || !skipBalanced())
        return success();
      skipTrivia();
    }
    if (!consumeKeyword(listName))
      return success();
    skipTrivia();
    if (peek() != '=')
      return success();
    ++pos;
    return checkIntegerList(opName, listName);
  }

  /// `[` (integer (`,` integer)*)? `]` as DenseI64ArrayAttr::parse reads
  /// it.
  LogicalResult checkIntegerList(StringRef opName, StringRef listName) {
    skipTrivia();
    if (peek() != '[')
      return report(opName, listName);
    ++pos;
    skipTrivia();
    if (peek() == ']')
      return success();
    while (true) {
      skipTrivia();
      if (!consumeInteger())
        return report(opName, listName);
      skipTrivia();
      if (peek() == ']')
        return success();
      if (peek() != ',')
        return report(opName, listName);
      ++pos;
    }
  }

  /// An integer as AsmParser::parseInteger reads an int64_t: an optionally
  /// negated decimal or hexadecimal literal that fits, or true or false.
  /// On failure `pos` is where the integer should have been.
  bool consumeInteger() {
    size_t start = pos;
    if (consumeKeyword("true") || consumeKeyword("false"))
      return true;
    bool negative = peek() == '-';
    if (negative) {
      ++pos;
      skipTrivia();
    }
    size_t digits = pos;
    if (text.substr(pos).starts_with("0x") && pos + 2 < text.size() &&
        llvm::isHexDigit(text[pos + 2])) {
      pos += 2;
      while (llvm::isHexDigit(peek()))
        ++pos;
    } else {
      while (llvm::isDigit(peek()))
        ++pos;
    }
    uint64_t value;
    const uint64_t largest = std::numeric_limits<int64_t>::max();
    if (pos == digits || peek() == '.' ||
        text.slice(digits, pos).getAsInteger(0, value) ||
        value > largest + (negative ? 1 : 0)) {
      pos = start;
      return false;
    }
    return true;
  }

  LogicalResult report(StringRef opName, StringRef listName) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(text.data() + pos),
        sourceMgr.getMainFileID());
    StringRef file =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
            ->getBufferIdentifier();
    emitError(FileLineColLoc::get(context, file, line, column))
        << "expected '" << listName << " = [' integers ']' in '" << opName
        << "' (checked before parsing: MLIR 22.1's parser crashes on a "
           "malformed list)";
    return failure();
  }

  const llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  StringRef text;
  size_t pos = 0;
};
} // namespace

LogicalResult
blockbuster::checkLinalgIntegerLists(const llvm::SourceMgr &sourceMgr,
                                     MLIRContext *context) {
  return Scanner(sourceMgr, context).run();
}

OwningOpRef<ModuleOp>
blockbuster::parseGuardedSourceFile(llvm::SourceMgr &sourceMgr,
                                    const ParserConfig &config) {
  if (failed(checkLinalgIntegerLists(sourceMgr, config.getContext())))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}
