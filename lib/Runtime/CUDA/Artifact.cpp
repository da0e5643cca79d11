//===- Artifact.cpp - Reading and validating a GPU artifact ---------------===//
//
// The rules (and the wording of each message) are those of
// python/blockbuster/artifact.py; test/Runtime/CUDA/Inputs/bad-artifacts holds one
// directory per rule with the text both implementations must print.
//
//===----------------------------------------------------------------------===//

#include "Blockbuster/Runtime/CUDA/Artifact.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>
#include <set>

using namespace llvm;
using namespace blockbuster::runtime;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

namespace {
struct DTypeInfo {
  DType type;
  const char *name;
  int64_t bytes;
};
constexpr DTypeInfo dtypes[] = {
    {DType::F16, "f16", 2}, {DType::BF16, "bf16", 2}, {DType::F32, "f32", 4},
    {DType::F64, "f64", 8}, {DType::I1, "i1", 1},     {DType::I8, "i8", 1},
    {DType::I16, "i16", 2}, {DType::I32, "i32", 4},   {DType::I64, "i64", 8},
};
constexpr const char *dtypeList = "f16 bf16 f32 f64 i1 i8 i16 i32 i64";

// CUDA's launch limits for every device since sm_30.
constexpr int64_t maxThreadsPerBlock = 1024;
constexpr int64_t maxBlockDim[3] = {1024, 1024, 64};
constexpr int64_t maxGridDim[3] = {2147483647, 65535, 65535};
} // namespace

std::optional<DType> blockbuster::runtime::parseDType(StringRef name) {
  for (const DTypeInfo &info : dtypes)
    if (name == info.name)
      return info.type;
  return std::nullopt;
}

StringRef blockbuster::runtime::getDTypeName(DType type) {
  return dtypes[static_cast<int>(type)].name;
}

int64_t blockbuster::runtime::getDTypeBytes(DType type) {
  return dtypes[static_cast<int>(type)].bytes;
}

bool blockbuster::runtime::isFloat(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32 ||
         type == DType::F64;
}

int64_t Buffer::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

std::string blockbuster::runtime::describeShape(ArrayRef<int64_t> shape,
                                               DType dtype) {
  std::string text;
  raw_string_ostream os(text);
  for (int64_t extent : shape)
    os << extent << 'x';
  os << getDTypeName(dtype);
  return text;
}

std::string Buffer::describe() const { return describeShape(shape, dtype); }

int64_t Param::getBytes() const {
  return isBuffer() || isTensorMap() ? 8 : getDTypeBytes(scalarType);
}

//===----------------------------------------------------------------------===//
// PTX entry points
//===----------------------------------------------------------------------===//

/// The PTX without // and /* */ comments.
static std::string stripComments(StringRef ptx) {
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size();) {
    if (ptx.substr(i).starts_with("//")) {
      i = ptx.find('\n', i);
      if (i == StringRef::npos)
        break;
    } else if (ptx.substr(i).starts_with("/*")) {
      size_t end = ptx.find("*/", i + 2);
      out += ' ';
      i = end == StringRef::npos ? ptx.size() : end + 2;
    } else {
      out += ptx[i++];
    }
  }
  return out;
}

static bool isIdentifierChar(char c) {
  return isAlnum(c) || c == '_' || c == '$' || c == '%';
}

/// Bytes of one ".param" declaration: ".param .u64 .ptr .align 16 k_param_0",
/// ".param .f32 k_param_1", or ".param .align 8 .b8 k_param_2[56]" (a
/// struct by value); 0 when no type is recognised.
static int64_t getParamBytes(StringRef param) {
  SmallVector<StringRef> tokens;
  SplitString(param, tokens, " \t\r\n");
  int64_t element = 0;
  for (StringRef token : tokens) {
    if (token.size() < 3 || token[0] != '.' ||
        !StringRef("usbf").contains(token[1]))
      continue;
    unsigned bits;
    if (token.drop_front(2).getAsInteger(10, bits) ||
        (bits != 8 && bits != 16 && bits != 32 && bits != 64))
      continue;
    element = bits / 8;
    break;
  }
  if (!element)
    return 0;
  StringRef trimmed = param.rtrim();
  int64_t count = 1;
  if (trimmed.ends_with("]")) {
    size_t open = trimmed.rfind('[');
    if (open != StringRef::npos)
      trimmed.slice(open + 1, trimmed.size() - 1).trim().getAsInteger(10, count);
  }
  return element * count;
}

/// ".maxntid 128, 1, 1" in the directives between an entry's ")" and "{".
static std::optional<std::array<int64_t, 3>> getNtid(StringRef directives,
                                                     StringRef name) {
  size_t at = directives.find(name);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = directives.drop_front(at + name.size());
  std::array<int64_t, 3> dims = {1, 1, 1};
  for (int i = 0; i < 3; ++i) {
    rest = rest.ltrim();
    if (i > 0) {
      if (!rest.consume_front(","))
        break;
      rest = rest.ltrim();
    }
    size_t digits = 0;
    while (digits < rest.size() && isDigit(rest[digits]))
      ++digits;
    if (!digits)
      break;
    rest.take_front(digits).getAsInteger(10, dims[i]);
    rest = rest.drop_front(digits);
  }
  return dims;
}

std::vector<PTXEntry> blockbuster::runtime::parsePTXEntries(StringRef ptx) {
  std::string text = stripComments(ptx);
  StringRef rest(text);
  std::vector<PTXEntry> entries;
  for (size_t at; (at = rest.find(".entry")) != StringRef::npos;) {
    rest = rest.drop_front(at + 6);
    if (rest.empty() || !isSpace(rest[0]))
      continue;
    rest = rest.ltrim();
    size_t length = 0;
    while (length < rest.size() && isIdentifierChar(rest[length]))
      ++length;
    PTXEntry entry;
    entry.name = rest.take_front(length).str();
    rest = rest.drop_front(length).ltrim();
    if (entry.name.empty() || !rest.consume_front("("))
      continue;
    size_t close = rest.find(')');
    if (close == StringRef::npos)
      break;
    SmallVector<StringRef> params;
    rest.take_front(close).split(params, ',', -1, /*KeepEmpty=*/false);
    for (StringRef param : params)
      if (!param.trim().empty())
        entry.paramBytes.push_back(getParamBytes(param));
    rest = rest.drop_front(close + 1);
    StringRef directives = rest.take_until([](char c) { return c == '{'; });
    entry.maxntid = getNtid(directives, ".maxntid");
    entry.reqntid = getNtid(directives, ".reqntid");
    entries.push_back(std::move(entry));
  }
  return entries;
}

//===----------------------------------------------------------------------===//
// JSON helpers
//===----------------------------------------------------------------------===//

/// A JSON value the way Python's json.dumps prints it (", " and ": "
/// separators), so that both runtimes quote values alike.
static void dump(raw_ostream &os, const json::Value &value) {
  switch (value.kind()) {
  case json::Value::Null:
    os << "null";
    return;
  case json::Value::Boolean:
    os << (*value.getAsBoolean() ? "true" : "false");
    return;
  case json::Value::String:
    os << json::Value(*value.getAsString());
    return;
  case json::Value::Number:
    if (std::optional<int64_t> integer = value.getAsInteger()) {
      os << *integer;
      return;
    }
    {
      // The shortest form that reads back as the same double.
      double number = *value.getAsNumber();
      for (int precision = 1; precision <= 17; ++precision) {
        std::string text = formatv("{0}", format("%.*g", precision, number));
        if (std::strtod(text.c_str(), nullptr) == number ||
            precision == 17) {
          os << text;
          return;
        }
      }
    }
    return;
  case json::Value::Array: {
    os << '[';
    ListSeparator separator(", ");
    for (const json::Value &element : *value.getAsArray()) {
      os << separator;
      dump(os, element);
    }
    os << ']';
    return;
  }
  case json::Value::Object: {
    const json::Object &object = *value.getAsObject();
    std::vector<std::string> keys;
    for (const auto &member : object)
      keys.push_back(member.first.str());
    llvm::sort(keys);
    os << '{';
    ListSeparator separator(", ");
    for (const std::string &key : keys) {
      os << separator << json::Value(key) << ": ";
      dump(os, *object.get(key));
    }
    os << '}';
    return;
  }
  }
}

static std::string dump(const json::Value &value) {
  std::string text;
  raw_string_ostream os(text);
  dump(os, value);
  return text;
}

namespace {
/// Builds the error messages: "DIR/manifest.json: FIELD: MESSAGE".
class Checker {
public:
  explicit Checker(std::string where) : where(std::move(where)) {}

  Error fail(const Twine &field, const Twine &message) const {
    std::string fieldText = field.str();
    if (fieldText.empty())
      return createStringError(inconvertibleErrorCode(),
                               where + ": " + message.str());
    return createStringError(inconvertibleErrorCode(),
                             where + ": " + fieldText + ": " + message.str());
  }

  enum class Kind { String, Int, Array, Object };

  /// `object[key]`, checked to be of `kind`. Null when missing and not
  /// required.
  Expected<const json::Value *> get(const json::Object &object, StringRef key,
                                    StringRef field, Kind kind,
                                    bool required = true) const {
    const json::Value *value = object.get(key);
    if (!value) {
      if (required)
        return fail(field, "missing field '" + key + "'");
      return nullptr;
    }
    bool ok = false;
    const char *expected = "";
    switch (kind) {
    case Kind::String:
      ok = value->getAsString() && !value->getAsString()->empty();
      expected = "a non-empty string";
      break;
    case Kind::Int:
      ok = value->getAsInteger().has_value();
      expected = "an integer";
      break;
    case Kind::Array:
      ok = value->getAsArray() != nullptr;
      expected = "an array";
      break;
    case Kind::Object:
      ok = value->getAsObject() != nullptr;
      expected = "an object";
      break;
    }
    if (!ok)
      return fail(field.empty() ? key.str() : (field + "." + key).str(),
                  Twine("expected ") + expected + ", got " + dump(*value));
    return value;
  }

  Expected<std::string> getString(const json::Object &object, StringRef key,
                                  StringRef field, bool required = true) const {
    Expected<const json::Value *> value =
        get(object, key, field, Kind::String, required);
    if (!value)
      return value.takeError();
    return *value ? (*value)->getAsString()->str() : std::string();
  }

  Expected<int64_t> getInt(const json::Object &object, StringRef key,
                           StringRef field, bool required = true) const {
    Expected<const json::Value *> value =
        get(object, key, field, Kind::Int, required);
    if (!value)
      return value.takeError();
    return *value ? *(*value)->getAsInteger() : 0;
  }

  Expected<const json::Array *> getArray(const json::Object &object,
                                         StringRef key, StringRef field) const {
    Expected<const json::Value *> value = get(object, key, field, Kind::Array);
    if (!value)
      return value.takeError();
    return (*value)->getAsArray();
  }

  /// grid or block: 3 integers within CUDA's limits.
  Expected<std::array<unsigned, 3>> getDims(const json::Object &object,
                                            StringRef key, StringRef field,
                                            const int64_t limits[3]) const {
    Expected<const json::Array *> array = getArray(object, key, field);
    if (!array)
      return array.takeError();
    std::string name = (field + "." + key).str();
    bool ok = (*array)->size() == 3;
    for (const json::Value &element : **array)
      ok &= element.getAsInteger().has_value();
    if (!ok)
      return fail(name, "expected 3 integers, got " +
                            dump(json::Value(json::Array(**array))));
    std::array<unsigned, 3> dims;
    for (int axis = 0; axis < 3; ++axis) {
      int64_t value = *(**array)[axis].getAsInteger();
      if (value < 1 || value > limits[axis])
        return fail(name, formatv("{0} is {1}; it must be in [1, {2}]",
                                  "xyz"[axis], value, limits[axis]));
      dims[axis] = static_cast<unsigned>(value);
    }
    return dims;
  }

private:
  std::string where;
};
} // namespace

static std::string joinDims(ArrayRef<int64_t> dims, StringRef separator) {
  std::string text;
  raw_string_ostream os(text);
  ListSeparator listSeparator(separator);
  for (int64_t dim : dims)
    os << listSeparator << dim;
  return text;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

#define TRY(var, expr)                                                         \
  auto var##OrError = (expr);                                                  \
  if (!var##OrError)                                                           \
    return var##OrError.takeError();                                           \
  auto var = std::move(*var##OrError);

/// The `tensor_map` of a launch parameter, checked against its buffer (the
/// same rules and messages as python/blockbuster/artifact.py): the dtype and
/// global shape are the buffer's, the box has 1..256 elements along each of
/// the shape's dimensions, and its inner row fits the swizzle span.
static Error parseTensorMap(const Checker &c, const json::Value &value,
                            const std::string &field, const Artifact &artifact,
                            const std::map<std::string, int> &bufferIndex,
                            Param &p) {
  const json::Object *object = value.getAsObject();
  if (!object)
    return c.fail(field, "expected an object");
  TRY(name, c.getString(*object, "buffer", field));
  auto found = bufferIndex.find(name);
  if (found == bufferIndex.end())
    return c.fail(field, "unknown buffer \"" + name + "\"");
  const Buffer &buffer = artifact.buffers[found->second];
  TRY(dtype, c.getString(*object, "dtype", field));
  TRY(shape, c.getArray(*object, "global_shape", field));
  std::vector<int64_t> extents;
  for (const json::Value &extent : *shape)
    extents.push_back(extent.getAsInteger().value_or(-1));
  auto joined = [](ArrayRef<int64_t> values) {
    std::string text;
    ListSeparator x("x");
    for (int64_t v : values)
      text += (StringRef(x) + Twine(v)).str();
    return text;
  };
  if (dtype != getDTypeName(buffer.dtype) || extents != buffer.shape)
    return c.fail(field, "describes a " + joined(extents) + " " + dtype +
                             " array, but buffer '" + name + "' is " +
                             joined(buffer.shape) + " " +
                             getDTypeName(buffer.dtype));
  TRY(box, c.getArray(*object, "box", field));
  TensorMap map;
  for (const json::Value &size : *box)
    map.box.push_back(size.getAsInteger().value_or(0));
  if (map.box.size() != extents.size() || map.box.empty() ||
      map.box.size() > 5 ||
      llvm::any_of(map.box, [](int64_t b) { return b < 1 || b > 256; }))
    return c.fail(field + ".box",
                  formatv("must give 1..256 elements for each of the {0} "
                          "dimensions",
                          extents.size()));
  struct Option {
    StringRef key;
    std::vector<StringRef> allowed;
    int *value;
  } options[] = {{"swizzle", {"none", "32B", "64B", "128B"}, &map.swizzle},
                 {"l2_promotion", {"none", "64B", "128B", "256B"},
                  &map.l2Promotion},
                 {"oob_fill", {"zero", "nan"}, &map.oobFill}};
  for (Option &option : options) {
    TRY(text, c.getString(*object, option.key, field));
    auto it = llvm::find(option.allowed, text);
    if (it == option.allowed.end())
      return c.fail(field + "." + option.key,
                    "\"" + text + "\" is not one of " +
                        llvm::join(option.allowed, " "));
    *option.value = it - option.allowed.begin();
  }
  int64_t rowBytes = map.box.back() * getDTypeBytes(buffer.dtype);
  int64_t span = map.swizzle ? int64_t(16) << map.swizzle : 0;
  if (span && rowBytes > span)
    return c.fail(field + ".box",
                  formatv("an inner box row of {0} bytes exceeds the {1} "
                          "swizzle",
                          rowBytes, options[0].allowed[map.swizzle]));
  if ((extents.back() * getDTypeBytes(buffer.dtype)) % 16 || rowBytes % 16)
    return c.fail(field, "TMA needs rows of a multiple of 16 bytes");
  p.bufferIndex = found->second;
  p.tensorMap = std::move(map);
  return Error::success();
}

/// The manifest's format, version, entry, target and source.
static Error parseHeader(const Checker &c, const json::Object &manifest,
                         Artifact &artifact) {
  const json::Value *format = manifest.get("format");
  if (!format || format->getAsString() != StringRef("blockbuster-artifact"))
    return c.fail("format", "expected \"blockbuster-artifact\", got " +
                                (format ? dump(*format) : "null"));
  const json::Value *version = manifest.get("version");
  if (!version || version->getAsInteger() != 1 ||
      version->kind() != json::Value::Number)
    return c.fail("version", "version " + (version ? dump(*version) : "null") +
                                 " is not supported (this runtime reads "
                                 "version 1)");
  TRY(entry, c.getString(manifest, "entry", ""));
  artifact.entry = entry;
  TRY(target, c.get(manifest, "target", "", Checker::Kind::Object));
  TRY(chip, c.getString(*target->getAsObject(), "chip", "target"));
  artifact.chip = chip;
  TRY(features, c.getString(*target->getAsObject(), "features", "target",
                            /*required=*/false));
  artifact.features = features;
  TRY(source, c.getString(manifest, "source", "", /*required=*/false));
  if (!source.empty() &&
      (sys::path::is_absolute(source) || StringRef(source).contains("..")))
    return c.fail("source", "'" + source +
                                "' must be a file name relative to the "
                                "artifact directory");
  artifact.source = source;
  return Error::success();
}

/// The modules and their PTX, read from the artifact directory; returns
/// the entry points of each module's PTX.
static Expected<std::vector<std::vector<PTXEntry>>>
parseModules(const Checker &c, const json::Object &manifest,
             StringRef directory, Artifact &artifact) {
  std::vector<std::vector<PTXEntry>> moduleEntries;
  TRY(modules, c.getArray(manifest, "modules", ""));
  for (auto [i, value] : llvm::enumerate(*modules)) {
    std::string field = formatv("modules[{0}]", i);
    const json::Object *object = value.getAsObject();
    if (!object)
      return c.fail(field, "expected an object");
    TRY(name, c.getString(*object, "name", field));
    TRY(ptxFile, c.getString(*object, "ptx", field));
    for (const Module &module : artifact.modules)
      if (module.name == name)
        return c.fail(field, "duplicate module name '" + name + "'");
    SmallVector<StringRef> parts;
    StringRef(ptxFile).split(parts, '/');
    if (sys::path::is_absolute(ptxFile) || ptxFile[0] == '/' ||
        llvm::is_contained(parts, ".."))
      return c.fail(field + ".ptx", "'" + ptxFile +
                                        "' must be a file name relative to "
                                        "the artifact directory");
    SmallString<256> ptxPath(directory);
    sys::path::append(ptxPath, ptxFile);
    ErrorOr<std::unique_ptr<MemoryBuffer>> ptx =
        MemoryBuffer::getFile(ptxPath, /*IsText=*/true);
    if (!ptx)
      return c.fail(field + ".ptx", "cannot read PTX file " + ptxPath + ": " +
                                        ptx.getError().message());
    Module module;
    module.name = name;
    module.ptxFile = ptxFile;
    module.ptx = (*ptx)->getBuffer().str();
    moduleEntries.push_back(parsePTXEntries(module.ptx));
    artifact.modules.push_back(std::move(module));
  }
  if (artifact.modules.empty())
    return c.fail("modules", "an artifact needs at least one module");
  return std::move(moduleEntries);
}

using Positions = std::map<BufferKind, std::set<int64_t>>;

/// Buffer `i` of the manifest; records an input's or output's position in
/// `positions`.
static Expected<Buffer>
parseBuffer(const Checker &c, const json::Value &value, size_t i,
            const std::map<std::string, int> &bufferIndex,
            Positions &positions) {
  std::string field = formatv("buffers[{0}]", i);
  const json::Object *object = value.getAsObject();
  if (!object)
    return c.fail(field, "expected an object");
  Buffer buffer;
  TRY(name, c.getString(*object, "name", field));
  buffer.name = name;
  field = formatv("buffers[{0}] ('{1}')", i, name);
  if (bufferIndex.count(name))
    return c.fail(field, "duplicate buffer name '" + name + "'");
  TRY(kind, c.getString(*object, "kind", field));
  if (kind == "input")
    buffer.kind = BufferKind::Input;
  else if (kind == "output")
    buffer.kind = BufferKind::Output;
  else if (kind == "intermediate")
    buffer.kind = BufferKind::Intermediate;
  else if (kind == "workspace")
    buffer.kind = BufferKind::Workspace;
  else
    return c.fail(field + ".kind", "'" + kind +
                                       "' is not one of input, output, "
                                       "intermediate, workspace");
  if (buffer.kind == BufferKind::Input || buffer.kind == BufferKind::Output) {
    TRY(position, c.getInt(*object, "position", field));
    if (position < 0)
      return c.fail(field + ".position",
                    formatv("must be >= 0, got {0}", position));
    if (!positions[buffer.kind].insert(position).second)
      return c.fail(field + ".position",
                    formatv("two {0}s have position {1}", kind, position));
    buffer.position = position;
  }
  TRY(shape, c.getArray(*object, "shape", field));
  // Overflow-checked: a shape whose byte count does not fit is refused.
  int64_t elements = 1;
  bool ok = true;
  for (const json::Value &extent : *shape) {
    std::optional<int64_t> integer = extent.getAsInteger();
    ok &= integer && *integer >= 0;
    if (!ok)
      break;
    buffer.shape.push_back(*integer);
    if (*integer && elements > (int64_t(1) << 56) / *integer)
      return c.fail(field + ".shape", "is too large");
    elements *= *integer;
  }
  if (!ok)
    return c.fail(field + ".shape", "expected non-negative integers, got " +
                                        dump(json::Value(json::Array(*shape))));
  TRY(dtypeName, c.getString(*object, "dtype", field));
  std::optional<DType> dtype = parseDType(dtypeName);
  if (!dtype)
    return c.fail(field + ".dtype",
                  "'" + dtypeName + "' is not one of " + dtypeList);
  buffer.dtype = *dtype;
  TRY(bytes, c.getInt(*object, "bytes", field));
  int64_t expected = elements * getDTypeBytes(*dtype);
  if (bytes != expected)
    return c.fail(field + ".bytes",
                  formatv("is {0}, but shape [{1}] of {2} is {3} bytes", bytes,
                          joinDims(buffer.shape, ", "), dtypeName, expected));
  buffer.bytes = bytes;
  TRY(constant, c.getString(*object, "constant", field,
                            /*required=*/false));
  if (!constant.empty() && buffer.kind != BufferKind::Input)
    return c.fail(field + ".constant",
                  "only inputs can be constants, this buffer is an " + kind);
  buffer.constant = constant;
  return std::move(buffer);
}

/// The buffers; numbers the inputs and outputs by position, which must run
/// from 0 without a gap, and fills `bufferIndex` (name -> index).
static Error parseBuffers(const Checker &c, const json::Object &manifest,
                          Artifact &artifact,
                          std::map<std::string, int> &bufferIndex) {
  Positions positions = {{BufferKind::Input, {}}, {BufferKind::Output, {}}};
  TRY(buffers, c.getArray(manifest, "buffers", ""));
  for (auto [i, value] : llvm::enumerate(*buffers)) {
    TRY(buffer, parseBuffer(c, value, i, bufferIndex, positions));
    bufferIndex[buffer.name] = artifact.buffers.size();
    artifact.buffers.push_back(std::move(buffer));
  }
  for (auto &[kind, seen] : positions) {
    int64_t missing = 0;
    while (seen.count(missing))
      ++missing;
    if (missing != static_cast<int64_t>(seen.size()))
      return c.fail(
          "buffers",
          formatv(
              "the {0} positions are [{1}]; position {2} is "
              "missing",
              kind == BufferKind::Input ? "input" : "output",
              joinDims(std::vector<int64_t>(seen.begin(), seen.end()), ", "),
              missing));
  }
  if (positions[BufferKind::Output].empty())
    return c.fail("buffers", "the program has no output");
  for (auto kind : {BufferKind::Input, BufferKind::Output}) {
    std::vector<int> &list =
        kind == BufferKind::Input ? artifact.inputs : artifact.outputs;
    list.resize(positions[kind].size());
    for (auto [index, buffer] : llvm::enumerate(artifact.buffers))
      if (buffer.kind == kind)
        list[buffer.position] = index;
  }
  return Error::success();
}

/// Kernel parameter `paramValue` at `paramField`: a buffer, a scalar of a
/// valid value, or a tensor map. Records the outputs a launch is passed in
/// `written`.
static Expected<Param> parseParam(const Checker &c,
                                  const json::Value &paramValue,
                                  const std::string &paramField,
                                  const Artifact &artifact,
                                  const std::map<std::string, int> &bufferIndex,
                                  std::set<int> &written) {
  const json::Object *param = paramValue.getAsObject();
  if (!param || int(param->get("buffer") != nullptr) +
                        int(param->get("scalar") != nullptr) +
                        int(param->get("tensor_map") != nullptr) !=
                    1)
    return c.fail(paramField,
                  "expected {\"buffer\": NAME}, {\"scalar\": DTYPE, "
                  "\"value\": V} or {\"tensor_map\": {...}}, got " +
                      dump(paramValue));
  Param p;
  if (const json::Value *map = param->get("tensor_map")) {
    if (Error e = parseTensorMap(c, *map, paramField + ".tensor_map", artifact,
                                 bufferIndex, p))
      return std::move(e);
    return p;
  }
  if (const json::Value *buffer = param->get("buffer")) {
    std::optional<StringRef> name = buffer->getAsString();
    auto found = name ? bufferIndex.find(name->str()) : bufferIndex.end();
    if (found == bufferIndex.end())
      return c.fail(paramField, "unknown buffer " + dump(*buffer));
    p.bufferIndex = found->second;
    if (artifact.buffers[p.bufferIndex].kind == BufferKind::Output)
      written.insert(p.bufferIndex);
    return p;
  }
  const json::Value *scalar = param->get("scalar");
  std::optional<DType> type;
  if (std::optional<StringRef> name = scalar->getAsString())
    type = parseDType(*name);
  if (!type)
    return c.fail(paramField, "scalar type " + dump(*scalar) +
                                  " is not one of " + dtypeList);
  p.scalarType = *type;
  const json::Value *v = param->get("value");
  bool valid = false;
  if (v && v->kind() == json::Value::Number) {
    if (isFloat(*type)) {
      valid = true;
      p.floatValue = *v->getAsNumber();
    } else if (std::optional<int64_t> integer = v->getAsInteger()) {
      int bits = *type == DType::I1 ? 1 : 8 * getDTypeBytes(*type);
      valid = *type == DType::I1 ? (*integer == 0 || *integer == 1)
              : bits == 64       ? true
                                 : (*integer >= -(int64_t(1) << (bits - 1)) &&
                              *integer < (int64_t(1) << bits));
      p.intValue = *integer;
    } else if (*type == DType::I64 && v->getAsUINT64()) {
      valid = true;
      p.intValue = static_cast<int64_t>(*v->getAsUINT64());
    }
  }
  if (!valid)
    return c.fail(paramField, "value " + (v ? dump(*v) : "null") +
                                  " is not a valid " + getDTypeName(*type));
  return p;
}

/// Checks each parameter of `launch` against the size of the PTX entry's
/// parameter it binds (0: not known).
static Error checkParamSizes(const Checker &c, const std::string &field,
                             const Launch &launch, const PTXEntry &ptxEntry,
                             const Module &module, const Artifact &artifact) {
  if (launch.params.size() != ptxEntry.paramBytes.size())
    return c.fail(field + ".params",
                  formatv("{0} parameters, but .entry {1} in {2} takes {3}",
                          launch.params.size(), launch.kernel, module.ptxFile,
                          ptxEntry.paramBytes.size()));
  for (auto [j, pair] :
       llvm::enumerate(llvm::zip(launch.params, ptxEntry.paramBytes))) {
    const Param &p = std::get<0>(pair);
    int64_t size = std::get<1>(pair);
    if (size == 0 || size == p.getBytes())
      continue;
    std::string what =
        p.isBuffer() ? "buffer '" + artifact.buffers[p.bufferIndex].name +
                           "' (a device pointer, 8 bytes)"
        : p.isTensorMap()
            ? "a tensor map of '" + artifact.buffers[p.bufferIndex].name +
                  "' (a device pointer, 8 bytes)"
            : formatv("a {0} scalar ({1} bytes)", getDTypeName(p.scalarType),
                      p.getBytes())
                  .str();
    std::string hint = p.isBuffer() && size > 8
                           ? " (a memref descriptor? kernels must use the "
                             "bare-pointer calling convention)"
                           : "";
    return c.fail(formatv("{0}.params[{1}]", field, j),
                  formatv("binds {0}, but parameter {1} of .entry {2} in "
                          "the PTX is {3} bytes{4}",
                          what, j, launch.kernel, size, hint));
  }
  return Error::success();
}

/// Launch `i` of the manifest: its kernel must be an entry of its module's
/// PTX, its grid and block within CUDA's limits and the PTX's, and its
/// parameters what the entry takes.
static Expected<Launch> parseLaunch(
    const Checker &c, const json::Value &value, size_t i,
    const Artifact &artifact, ArrayRef<std::vector<PTXEntry>> moduleEntries,
    const std::map<std::string, int> &bufferIndex, std::set<int> &written) {
  std::string field = formatv("launches[{0}]", i);
  const json::Object *object = value.getAsObject();
  if (!object)
    return c.fail(field, "expected an object");
  Launch launch;
  TRY(moduleName, c.getString(*object, "module", field));
  auto module = llvm::find_if(
      artifact.modules, [&](const Module &m) { return m.name == moduleName; });
  if (module == artifact.modules.end())
    return c.fail(field + ".module", "unknown module '" + moduleName + "'");
  launch.moduleIndex = module - artifact.modules.begin();
  TRY(kernel, c.getString(*object, "kernel", field));
  launch.kernel = kernel;
  field = formatv("launches[{0}] ('{1}')", i, kernel);
  const std::vector<PTXEntry> &entries = moduleEntries[launch.moduleIndex];
  auto ptxEntry = llvm::find_if(
      entries, [&](const PTXEntry &e) { return e.name == kernel; });
  if (ptxEntry == entries.end()) {
    std::vector<std::string> names;
    for (const PTXEntry &e : entries)
      names.push_back(e.name);
    llvm::sort(names);
    return c.fail(field + ".kernel",
                  "the PTX of module '" + moduleName + "' (" + module->ptxFile +
                      ") has no .entry " + kernel + " (entries: " +
                      (names.empty() ? "none" : join(names, ", ")) + ")");
  }
  TRY(grid, c.getDims(*object, "grid", field, maxGridDim));
  TRY(block, c.getDims(*object, "block", field, maxBlockDim));
  launch.grid = grid;
  launch.block = block;
  std::vector<int64_t> blockDims(block.begin(), block.end());
  int64_t threads = int64_t(block[0]) * block[1] * block[2];
  if (threads > maxThreadsPerBlock)
    return c.fail(field + ".block", formatv("[{0}] is {1} threads; at most {2}",
                                            joinDims(blockDims, ", "), threads,
                                            maxThreadsPerBlock));
  if (ptxEntry->reqntid && !llvm::equal(blockDims, *ptxEntry->reqntid))
    return c.fail(field + ".block",
                  formatv("[{0}], but the PTX requires .reqntid {1}",
                          joinDims(blockDims, ", "),
                          joinDims(*ptxEntry->reqntid, ", ")));
  if (ptxEntry->maxntid) {
    const auto &m = *ptxEntry->maxntid;
    if (threads > m[0] * m[1] * m[2])
      return c.fail(field + ".block",
                    formatv("[{0}] is {1} threads, but the PTX allows "
                            ".maxntid {2}",
                            joinDims(blockDims, ", "), threads,
                            joinDims(m, ", ")));
  }
  TRY(smem, c.getInt(*object, "dynamic_smem", field, /*required=*/false));
  if (smem < 0 || smem > (int64_t(1) << 31))
    return c.fail(field + ".dynamic_smem",
                  formatv("must be >= 0, got {0}", smem));
  launch.dynamicSharedBytes = static_cast<unsigned>(smem);
  if (object->get("cluster")) {
    // At most 8 blocks per cluster (the portable size), each dimension
    // dividing the grid's.
    static const int64_t maxClusterDim[3] = {8, 8, 8};
    TRY(cluster, c.getDims(*object, "cluster", field, maxClusterDim));
    std::vector<int64_t> clusterDims(cluster.begin(), cluster.end());
    if (cluster[0] * cluster[1] * cluster[2] > 8)
      return c.fail(field + ".cluster",
                    formatv("[{0}] is {1} blocks; at most 8",
                            joinDims(clusterDims, ", "),
                            cluster[0] * cluster[1] * cluster[2]));
    for (int axis = 0; axis < 3; ++axis)
      if (grid[axis] % cluster[axis] != 0)
        return c.fail(field + ".cluster",
                      formatv("[{0}] does not divide the grid [{1}, {2}, {3}]",
                              joinDims(clusterDims, ", "), grid[0], grid[1],
                              grid[2]));
    launch.cluster = cluster;
  }

  TRY(params, c.getArray(*object, "params", field));
  for (auto [j, paramValue] : llvm::enumerate(*params)) {
    std::string paramField = formatv("{0}.params[{1}]", field, j);
    TRY(p,
        parseParam(c, paramValue, paramField, artifact, bufferIndex, written));
    launch.params.push_back(p);
  }
  if (Error e = checkParamSizes(c, field, launch, *ptxEntry, *module, artifact))
    return std::move(e);
  return std::move(launch);
}

Expected<Artifact> blockbuster::runtime::loadArtifact(StringRef directory) {
  Artifact artifact;
  artifact.directory = directory.str();
  SmallString<256> manifestPath(directory);
  sys::path::append(manifestPath, "manifest.json");
  Checker c(manifestPath.str().str());
  auto error = [](const Twine &message) {
    return createStringError(inconvertibleErrorCode(), message);
  };

  if (!sys::fs::is_directory(directory))
    return error(directory + ": not a directory (an artifact is a directory "
                             "with manifest.json)");
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(manifestPath, /*IsText=*/true);
  if (!file)
    return error(manifestPath + ": cannot read: " + file.getError().message());
  Expected<json::Value> parsed = json::parse((*file)->getBuffer());
  if (!parsed)
    return error(manifestPath +
                 ": invalid JSON: " + toString(parsed.takeError()));
  const json::Object *manifest = parsed->getAsObject();
  if (!manifest)
    return c.fail("manifest", "expected a JSON object");

  if (Error e = parseHeader(c, *manifest, artifact))
    return std::move(e);
  TRY(moduleEntries, parseModules(c, *manifest, directory, artifact));
  std::map<std::string, int> bufferIndex;
  if (Error e = parseBuffers(c, *manifest, artifact, bufferIndex))
    return std::move(e);

  std::set<int> written;
  TRY(launches, c.getArray(*manifest, "launches", ""));
  for (auto [i, value] : llvm::enumerate(*launches)) {
    TRY(launch, parseLaunch(c, value, i, artifact, moduleEntries, bufferIndex,
                            written));
    artifact.launches.push_back(std::move(launch));
  }
  if (artifact.launches.empty())
    return c.fail("launches", "an artifact needs at least one launch");
  bool usesTensorMaps = llvm::any_of(artifact.launches, [](const Launch &l) {
    return llvm::any_of(l.params,
                        [](const Param &p) { return p.isTensorMap(); });
  });
  if (usesTensorMaps && !StringRef(artifact.chip).ends_with("a"))
    return c.fail("target.chip", artifact.chip +
                                     ", but tensor-map (TMA) kernels are "
                                     "compiled for an architecture-specific "
                                     "chip such as sm_90a");
  for (auto [index, buffer] : llvm::enumerate(artifact.buffers))
    if (buffer.kind == BufferKind::Output && buffer.bytes &&
        !written.count(index))
      return c.fail("launches", "output '" + buffer.name +
                                    "' is passed to no kernel, so nothing "
                                    "would write it");
  return std::move(artifact);
}
