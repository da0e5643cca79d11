"""Reading and validating a Blockbuster GPU artifact (docs/Artifact.md).

An artifact is a directory with ``manifest.json`` and one PTX file per kernel
module. Everything here is pure Python and touches no GPU: an artifact that
does not match its own PTX, or whose byte counts do not match its shapes, is
refused before any CUDA call, so a bad artifact can never become a launch
with wrong sizes. The C++ runtime (lib/Runtime/CUDA/Artifact.cpp) applies the same
rules with the same messages; test/Runtime/CUDA/Inputs/bad-artifacts holds the
cases both are tested on.
"""

from __future__ import annotations

import json
import math
import os
import re
import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

FORMAT = "blockbuster-artifact"
VERSION = 1
MANIFEST = "manifest.json"

# Bytes per element in memory; i1 is stored as one byte.
DTYPE_BYTES = {
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
    "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
}
FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")
BUFFER_KINDS = ("input", "output", "intermediate", "workspace")

# CUDA launch limits of every device since sm_30 (the programming guide's
# table of technical specifications); a manifest beyond them cannot launch.
MAX_THREADS_PER_BLOCK = 1024
MAX_BLOCK_DIM = (1024, 1024, 64)
MAX_GRID_DIM = (2**31 - 1, 65535, 65535)


class ArtifactError(ValueError):
    """An artifact that cannot be run: the message says which file and field."""


@dataclass(repr=False)
class Buffer:
    """One array of the program: an input, an output or an intermediate."""

    name: str
    kind: str                   # one of BUFFER_KINDS
    position: Optional[int]     # argument or result position; None for intermediates
    shape: Tuple[int, ...]
    dtype: str                  # a key of DTYPE_BYTES
    nbytes: int
    # For an input that was a tensor constant of the source (a weight): its
    # `dense_resource` key, the name that binds it (docs/Artifact.md).
    constant: Optional[str] = None

    def __post_init__(self) -> None:
        self.shape = tuple(self.shape)

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    def describe(self) -> str:
        return "%s %s" % ("x".join(str(d) for d in self.shape) or "scalar",
                          self.dtype)

    def __repr__(self) -> str:
        return "Buffer(%r, %s, %s)" % (self.name, self.kind, self.describe())


# The enumerations of cuTensorMapEncodeTiled that a `tensor_map` parameter
# names (cuda.h's CUtensorMapSwizzle and CUtensorMapL2promotion, in order).
TENSOR_MAP_SWIZZLES = ("none", "32B", "64B", "128B")
TENSOR_MAP_L2_PROMOTIONS = ("none", "64B", "128B", "256B")
TENSOR_MAP_OOB_FILLS = ("zero", "nan")
# A box is at most 256 elements along each dimension (cuTensorMapEncodeTiled).
TENSOR_MAP_MAX_BOX = 256


@dataclass
class TensorMap:
    """A TMA descriptor (CUtensorMap) of a buffer that the runtime encodes on
    the host and passes as a device pointer to its 128 bytes. Shapes and the
    box are outermost dimension first, as buffer shapes."""

    buffer: Buffer
    box: Tuple[int, ...]
    swizzle: str
    l2_promotion: str
    oob_fill: str


@dataclass
class Param:
    """A kernel parameter: a buffer (one device pointer), a scalar by value,
    or a TMA descriptor (a device pointer to the encoded CUtensorMap)."""

    buffer: Optional[Buffer] = None
    scalar: Optional[str] = None   # a dtype name
    value: Union[int, float, None] = None
    tensor_map: Optional[TensorMap] = None

    @property
    def nbytes(self) -> int:
        if self.buffer is not None or self.tensor_map is not None:
            return 8
        return DTYPE_BYTES[self.scalar]


@dataclass
class Launch:
    """One kernel launch, in execution order."""

    module: str
    kernel: str
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    dynamic_smem: int
    params: List[Param]
    # Blocks per thread-block cluster, or None (a launch without clusters).
    cluster: Optional[Tuple[int, int, int]] = None

    def __post_init__(self) -> None:
        self.grid = tuple(self.grid)
        self.block = tuple(self.block)
        if self.cluster is not None:
            self.cluster = tuple(self.cluster)


@dataclass
class Module:
    """One PTX module and the entry points it defines."""

    name: str
    ptx_file: str
    ptx: str = dataclasses.field(repr=False)
    entries: Dict[str, Dict[str, Any]] = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.entries = parse_ptx_entries(self.ptx)


@dataclass(repr=False)
class Artifact:
    """A validated artifact: buffers in manifest order, inputs and outputs by
    position, launches in execution order."""

    path: str
    manifest: Dict[str, Any]           # manifest.json as read
    entry: str
    chip: str
    features: str
    modules: Dict[str, Module]         # name -> Module
    buffers: List[Buffer]              # manifest order
    launches: List[Launch]
    inputs: List[Buffer] = dataclasses.field(init=False)
    outputs: List[Buffer] = dataclasses.field(init=False)
    intermediates: List[Buffer] = dataclasses.field(init=False)
    # Key -> the inputs hoisted from that constant (one, unless the source
    # repeated the constant), in position order.
    constants: Dict[str, List[Buffer]] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.inputs = sorted((b for b in self.buffers if b.kind == "input"),
                             key=lambda b: b.position)
        self.outputs = sorted((b for b in self.buffers if b.kind == "output"),
                              key=lambda b: b.position)
        # Workspaces are intermediates that start zeroed (docs/Artifact.md).
        self.intermediates = [b for b in self.buffers
                              if b.kind in ("intermediate", "workspace")]
        self.constants = {}
        for b in self.inputs:
            if b.constant is not None:
                self.constants.setdefault(b.constant, []).append(b)

    def __repr__(self) -> str:
        return "Artifact(%r, @%s: %s -> %s, %d launches)" % (
            self.path, self.entry,
            ", ".join(b.describe() for b in self.inputs),
            ", ".join(b.describe() for b in self.outputs), len(self.launches))


# ---------------------------------------------------------------------------
# PTX entry points
# ---------------------------------------------------------------------------

_ENTRY_RE = re.compile(r"\.entry\s+([A-Za-z_$%][\w$%]*)\s*\(([^)]*)\)([^{]*)\{")
_TYPE_RE = re.compile(r"^\.[usbf](8|16|32|64)$")
_ARRAY_RE = re.compile(r"\[\s*(\d+)\s*\]\s*$")
_NTID_RE = re.compile(r"\.(maxntid|reqntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?")


def _strip_ptx_comments(ptx):
    ptx = re.sub(r"/\*.*?\*/", " ", ptx, flags=re.S)
    return re.sub(r"//[^\n]*", "", ptx)


def parse_ptx_entries(ptx):
    """Kernel name -> {"params": [bytes per parameter], "maxntid": (x, y, z)
    or None, "reqntid": ...} for every ``.entry`` of a PTX module."""
    entries = {}
    for match in _ENTRY_RE.finditer(_strip_ptx_comments(ptx)):
        name, params_text, directives = match.groups()
        sizes = []
        for param in filter(None, (p.strip() for p in params_text.split(","))):
            # ".param .u64 .ptr .align 16 k_param_0", ".param .f32 k_param_1"
            # or ".param .align 8 .b8 k_param_2[56]" (a struct by value).
            types = [t for t in param.split() if _TYPE_RE.match(t)]
            if not types:
                sizes.append(None)  # unknown form: counted, size not checked
                continue
            element = int(_TYPE_RE.match(types[0]).group(1)) // 8
            array = _ARRAY_RE.search(param)
            count = int(array.group(1)) if array else 1
            sizes.append(element * count)
        info = {"params": sizes, "maxntid": None, "reqntid": None}
        for nm in _NTID_RE.finditer(directives):
            dims = tuple(int(d) if d else 1 for d in nm.groups()[1:])
            info[nm.group(1)] = dims
        entries[name] = info
    return entries


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

def _tensor_map(c, t, field, buffers) -> TensorMap:
    """The `tensor_map` of a launch parameter, checked against its buffer:
    the dtype and global shape must be the buffer's (the runtime encodes the
    map from the buffer's address), the box fits the shape's rank, each box
    size is 1..256, and the box's inner row fits the swizzle span."""
    if not isinstance(t, dict):
        c.fail(field, "expected an object")
    name = c.get(t, "buffer", field, "string")
    if name not in buffers:
        c.fail(field, "unknown buffer %s" % json.dumps(name))
    buffer = buffers[name]
    dtype = c.get(t, "dtype", field, "string")
    shape = c.get(t, "global_shape", field, "array")
    if dtype != buffer.dtype or tuple(shape) != buffer.shape:
        c.fail(field, "describes a %s %s array, but buffer '%s' is %s %s"
               % ("x".join(map(str, shape)), dtype, name,
                  "x".join(map(str, buffer.shape)), buffer.dtype))
    box = c.get(t, "box", field, "array")
    if (len(box) != len(shape) or not 1 <= len(box) <= 5 or
            not all(_is_int(b) and 1 <= b <= TENSOR_MAP_MAX_BOX for b in box)):
        c.fail(field + ".box", "must give 1..%d elements for each of the %d "
               "dimensions" % (TENSOR_MAP_MAX_BOX, len(shape)))
    options = {}
    for key, allowed in (("swizzle", TENSOR_MAP_SWIZZLES),
                         ("l2_promotion", TENSOR_MAP_L2_PROMOTIONS),
                         ("oob_fill", TENSOR_MAP_OOB_FILLS)):
        options[key] = c.get(t, key, field, "string")
        if options[key] not in allowed:
            c.fail("%s.%s" % (field, key), "%s is not one of %s"
                   % (json.dumps(options[key]), " ".join(allowed)))
    row_bytes = box[-1] * DTYPE_BYTES[dtype]
    span = {"none": None, "32B": 32, "64B": 64, "128B": 128}[options["swizzle"]]
    if span is not None and row_bytes > span:
        c.fail(field + ".box", "an inner box row of %d bytes exceeds the %s "
               "swizzle" % (row_bytes, options["swizzle"]))
    if (shape[-1] * DTYPE_BYTES[dtype]) % 16 or row_bytes % 16:
        c.fail(field, "TMA needs rows of a multiple of 16 bytes")
    return TensorMap(buffer, tuple(box), **options)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self, path):
        self.path = path
        self.where = os.path.join(path, MANIFEST)

    def fail(self, field, message):
        if not field:
            raise ArtifactError("%s: %s" % (self.where, message))
        raise ArtifactError("%s: %s: %s" % (self.where, field, message))

    def get(self, obj, key, field, kind, required=True):
        if key not in obj:
            if required:
                self.fail(field, "missing field '%s'" % key)
            return None
        value = obj[key]
        ok = {
            "string": lambda v: isinstance(v, str) and v != "",
            "int": _is_int,
            "array": lambda v: isinstance(v, list),
            "object": lambda v: isinstance(v, dict),
        }[kind](value)
        if not ok:
            self.fail("%s.%s" % (field, key) if field else key,
                      "expected %s, got %s" % (
                          {"string": "a non-empty string", "int": "an integer",
                           "array": "an array", "object": "an object"}[kind],
                          json.dumps(value)))
        return value

    def dims(self, obj, key, field, limits):
        value = self.get(obj, key, field, "array")
        name = "%s.%s" % (field, key)
        if len(value) != 3 or not all(_is_int(v) for v in value):
            self.fail(name, "expected 3 integers, got %s" % json.dumps(value))
        for axis, (v, limit) in enumerate(zip(value, limits)):
            if v < 1 or v > limit:
                self.fail(name, "%s is %d; it must be in [1, %d]"
                          % ("xyz"[axis], v, limit))
        return value


def _read_manifest(path, c):
    """The parsed manifest.json of directory ``path`` (a dict)."""
    if not os.path.isdir(path):
        raise ArtifactError("%s: not a directory (an artifact is a directory "
                            "with %s)" % (path, MANIFEST))
    try:
        with open(c.where, "rb") as f:
            text = f.read()
    except OSError as e:
        raise ArtifactError("%s: cannot read: %s" % (c.where, e.strerror))
    try:
        manifest = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise ArtifactError("%s: invalid JSON: %s" % (c.where, e))
    if not isinstance(manifest, dict):
        c.fail("manifest", "expected a JSON object")
    return manifest


def _header(c, manifest):
    """The manifest's entry, chip, features and source, after its format
    and version."""
    fmt = manifest.get("format")
    if fmt != FORMAT:
        c.fail("format", "expected \"%s\", got %s" % (FORMAT, json.dumps(fmt)))
    version = manifest.get("version")
    if version != VERSION:
        c.fail("version", "version %s is not supported (this runtime reads "
               "version %d)" % (json.dumps(version), VERSION))
    entry = c.get(manifest, "entry", "", "string")
    target = c.get(manifest, "target", "", "object")
    chip = c.get(target, "chip", "target", "string")
    features = c.get(target, "features", "target", "string", required=False) or ""
    # Optional: the MLIR the artifact was compiled from (bb-run --check).
    source = c.get(manifest, "source", "", "string", required=False)
    if source and (os.path.isabs(source) or ".." in source):
        c.fail("source", "'%s' must be a file name relative to the artifact "
               "directory" % source)
    return entry, chip, features, source


def _modules(c, manifest, path):
    """The modules by name, their PTX read from directory ``path``."""
    modules = {}
    for i, m in enumerate(c.get(manifest, "modules", "", "array")):
        field = "modules[%d]" % i
        if not isinstance(m, dict):
            c.fail(field, "expected an object")
        name = c.get(m, "name", field, "string")
        ptx_file = c.get(m, "ptx", field, "string")
        if name in modules:
            c.fail(field, "duplicate module name '%s'" % name)
        if os.path.isabs(ptx_file) or ".." in ptx_file.replace("\\", "/").split("/"):
            c.fail(field + ".ptx", "'%s' must be a file name relative to the "
                   "artifact directory" % ptx_file)
        ptx_path = os.path.join(path, ptx_file)
        try:
            with open(ptx_path, "rb") as f:
                ptx = f.read().decode("utf-8", "replace")
        except OSError as e:
            c.fail(field + ".ptx", "cannot read PTX file %s: %s"
                   % (ptx_path, e.strerror))
        modules[name] = Module(name, ptx_file, ptx)
    if not modules:
        c.fail("modules", "an artifact needs at least one module")
    return modules


def _buffer(c, i, b, buffers, positions):
    """Buffer ``i`` of the manifest; records an input's or output's position
    in ``positions``."""
    field = "buffers[%d]" % i
    if not isinstance(b, dict):
        c.fail(field, "expected an object")
    name = c.get(b, "name", field, "string")
    field = "buffers[%d] ('%s')" % (i, name)
    if name in buffers:
        c.fail(field, "duplicate buffer name '%s'" % name)
    kind = c.get(b, "kind", field, "string")
    if kind not in BUFFER_KINDS:
        c.fail(field + ".kind", "'%s' is not one of input, output, "
               "intermediate, workspace" % kind)
    position = None
    if kind in ("input", "output"):
        position = c.get(b, "position", field, "int")
        if position < 0:
            c.fail(field + ".position", "must be >= 0, got %d" % position)
        if position in positions[kind]:
            c.fail(field + ".position", "two %ss have position %d"
                   % (kind, position))
        positions[kind].add(position)
    shape = c.get(b, "shape", field, "array")
    if not all(_is_int(d) and d >= 0 for d in shape):
        c.fail(field + ".shape", "expected non-negative integers, got %s"
               % json.dumps(shape))
    dtype = c.get(b, "dtype", field, "string")
    if dtype not in DTYPE_BYTES:
        c.fail(field + ".dtype", "'%s' is not one of %s"
               % (dtype, " ".join(DTYPE_BYTES)))
    nbytes = c.get(b, "bytes", field, "int")
    expected = math.prod(shape) * DTYPE_BYTES[dtype]
    if nbytes != expected:
        c.fail(field + ".bytes", "is %d, but shape %s of %s is %d bytes"
               % (nbytes, json.dumps(shape), dtype, expected))
    constant = None
    if "constant" in b:
        constant = c.get(b, "constant", field, "string")
        if kind != "input":
            c.fail(field + ".constant", "only inputs can be constants, "
                   "this buffer is an %s" % kind)
    return Buffer(name, kind, position, shape, dtype, nbytes, constant)


def _buffers(c, manifest):
    """The buffers by name and in manifest order; the input and output
    positions must run from 0 without a gap."""
    buffers = {}
    ordered = []
    positions = {"input": set(), "output": set()}
    for i, b in enumerate(c.get(manifest, "buffers", "", "array")):
        buf = _buffer(c, i, b, buffers, positions)
        buffers[buf.name] = buf
        ordered.append(buf)
    for kind, seen in positions.items():
        if seen != set(range(len(seen))):
            missing = min(set(range(len(seen) + 1)) - seen)
            c.fail("buffers", "the %s positions are %s; position %d is missing"
                   % (kind, sorted(seen), missing))
    if not positions["output"]:
        c.fail("buffers", "the program has no output")
    return buffers, ordered


def _param(c, p, pfield, buffers, written):
    """Kernel parameter ``p``: a buffer, a scalar of a valid value, or a
    tensor map. Records the outputs a launch is passed in ``written``."""
    if (not isinstance(p, dict) or
            [k in p for k in ("buffer", "scalar", "tensor_map")].count(True) != 1):
        c.fail(pfield, "expected {\"buffer\": NAME}, {\"scalar\": "
               "DTYPE, \"value\": V} or {\"tensor_map\": {...}}, got %s"
               % json.dumps(p))
    if "tensor_map" in p:
        return Param(tensor_map=_tensor_map(
            c, p["tensor_map"], pfield + ".tensor_map", buffers))
    if "buffer" in p:
        name = p["buffer"]
        if name not in buffers:
            c.fail(pfield, "unknown buffer %s" % json.dumps(name))
        if buffers[name].kind == "output":
            written.add(name)
        return Param(buffer=buffers[name])
    dtype = p["scalar"]
    if dtype not in DTYPE_BYTES:
        c.fail(pfield, "scalar type %s is not one of %s"
               % (json.dumps(dtype), " ".join(DTYPE_BYTES)))
    value = p.get("value")
    if dtype in FLOAT_DTYPES:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        bits = 8 * DTYPE_BYTES[dtype] if dtype != "i1" else 1
        ok = _is_int(value) and (
            0 <= value <= 1 if dtype == "i1"
            else -(1 << (bits - 1)) <= value < (1 << bits))
    if not ok:
        c.fail(pfield, "value %s is not a valid %s"
               % (json.dumps(value), dtype))
    return Param(scalar=dtype, value=value)


def _check_param_sizes(c, field, kernel, module, params, sizes):
    """Each parameter against the size of the PTX entry's parameter it binds
    (None: not known)."""
    if len(sizes) != len(params):
        c.fail(field + ".params", "%d parameters, but .entry %s in %s "
               "takes %d" % (len(params), kernel, module.ptx_file,
                             len(sizes)))
    for j, (p, size) in enumerate(zip(params, sizes)):
        if size is not None and size != p.nbytes:
            what = ("buffer '%s' (a device pointer, 8 bytes)" % p.buffer.name
                    if p.buffer is not None
                    else "a tensor map of '%s' (a device pointer, 8 bytes)"
                    % p.tensor_map.buffer.name if p.tensor_map is not None
                    else "a %s scalar (%d bytes)" % (p.scalar, p.nbytes))
            hint = (" (a memref descriptor? kernels must use the "
                    "bare-pointer calling convention)"
                    if p.buffer is not None and size > 8 else "")
            c.fail("%s.params[%d]" % (field, j), "binds %s, but parameter "
                   "%d of .entry %s in the PTX is %d bytes%s"
                   % (what, j, kernel, size, hint))


def _launch(c, i, l, modules, buffers, written):
    """Launch ``i``: its kernel must be an entry of its module's PTX, its
    grid and block within CUDA's limits and the PTX's, and its parameters
    what the entry takes."""
    field = "launches[%d]" % i
    if not isinstance(l, dict):
        c.fail(field, "expected an object")
    mod_name = c.get(l, "module", field, "string")
    if mod_name not in modules:
        c.fail(field + ".module", "unknown module '%s'" % mod_name)
    module = modules[mod_name]
    kernel = c.get(l, "kernel", field, "string")
    field = "launches[%d] ('%s')" % (i, kernel)
    if kernel not in module.entries:
        known = ", ".join(sorted(module.entries)) or "none"
        c.fail(field + ".kernel", "the PTX of module '%s' (%s) has no "
               ".entry %s (entries: %s)" % (mod_name, module.ptx_file,
                                             kernel, known))
    grid = c.dims(l, "grid", field, MAX_GRID_DIM)
    block = c.dims(l, "block", field, MAX_BLOCK_DIM)
    threads = math.prod(block)
    if threads > MAX_THREADS_PER_BLOCK:
        c.fail(field + ".block", "%s is %d threads; at most %d"
               % (json.dumps(block), threads, MAX_THREADS_PER_BLOCK))
    info = module.entries[kernel]
    if info["reqntid"] and tuple(block) != info["reqntid"]:
        c.fail(field + ".block", "%s, but the PTX requires .reqntid %s"
               % (json.dumps(block), ", ".join(map(str, info["reqntid"]))))
    if info["maxntid"] and threads > math.prod(info["maxntid"]):
        c.fail(field + ".block", "%s is %d threads, but the PTX allows "
               ".maxntid %s" % (json.dumps(block), threads,
                                ", ".join(map(str, info["maxntid"]))))
    smem = c.get(l, "dynamic_smem", field, "int", required=False) or 0
    if smem < 0:
        c.fail(field + ".dynamic_smem", "must be >= 0, got %d" % smem)
    cluster = None
    if "cluster" in l:
        # At most 8 blocks per cluster (the portable size), each dimension
        # dividing the grid's.
        cluster = c.dims(l, "cluster", field, (8, 8, 8))
        if math.prod(cluster) > 8:
            c.fail(field + ".cluster", "%s is %d blocks; at most 8"
                   % (json.dumps(cluster), math.prod(cluster)))
        if any(g % n for g, n in zip(grid, cluster)):
            c.fail(field + ".cluster", "%s does not divide the grid %s"
                   % (json.dumps(cluster), json.dumps(grid)))
    params = [_param(c, p, "%s.params[%d]" % (field, j), buffers, written)
              for j, p in enumerate(c.get(l, "params", field, "array"))]
    _check_param_sizes(c, field, kernel, module, params, info["params"])
    return Launch(mod_name, kernel, grid, block, smem, params, cluster)


def load(path):
    """Reads and validates the artifact in directory ``path``; raises
    ArtifactError naming the file and the field at the first problem."""
    path = os.fspath(path)
    c = _Checker(path)
    manifest = _read_manifest(path, c)
    entry, chip, features, source = _header(c, manifest)
    modules = _modules(c, manifest, path)
    buffers, ordered = _buffers(c, manifest)

    written = set()
    launches = [_launch(c, i, l, modules, buffers, written)
                for i, l in enumerate(c.get(manifest, "launches", "", "array"))]
    if not launches:
        c.fail("launches", "an artifact needs at least one launch")
    for b in ordered:
        if b.kind == "output" and b.name not in written and b.nbytes:
            c.fail("launches", "output '%s' is passed to no kernel, so nothing "
                   "would write it" % b.name)

    if any(p.tensor_map is not None for l in launches for p in l.params) \
            and not chip.endswith("a"):
        c.fail("target.chip", "%s, but tensor-map (TMA) kernels are compiled "
               "for an architecture-specific chip such as sm_90a" % chip)
    result = Artifact(path, manifest, entry, chip, features, modules, ordered,
                      launches)
    result.source = source
    return result
