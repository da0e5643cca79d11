#!/usr/bin/env python3
"""Writes bad-artifacts/: one broken copy of artifacts/scale_add per case, each
with expected-error.txt, the text both runtimes' errors must contain
(test/Runtime/CUDA/bad-artifacts.test for C++, python/tests/test_artifact.py for
Python). Re-run after changing a case; the output is committed."""
import copy, json, os, shutil

here = os.path.dirname(os.path.abspath(__file__))
good_dir = os.path.join(here, "artifacts", "scale_add")
good = json.load(open(os.path.join(good_dir, "manifest.json")))
out = os.path.join(here, "bad-artifacts")


def case(name, expected, edit=None, text=None, ptx_edit=None, files=True):
    d = os.path.join(out, name)
    os.makedirs(d)
    m = copy.deepcopy(good)
    if edit:
        edit(m)
    if files:
        for f in ("scale.ptx", "add.ptx"):
            src = open(os.path.join(good_dir, f)).read()
            if ptx_edit and f in ptx_edit:
                src = ptx_edit[f](src)
            open(os.path.join(d, f), "w").write(src)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        f.write(text if text is not None else json.dumps(m, indent=1) + "\n")
    open(os.path.join(d, "expected-error.txt"), "w").write(expected + "\n")


def setp(path, value):
    def edit(m):
        obj = m
        for key in path[:-1]:
            obj = obj[key]
        if value is DELETE:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value
    return edit


DELETE = object()

shutil.rmtree(out, ignore_errors=True)
case("missing-ptx", "modules[1].ptx: cannot read PTX file",
     edit=setp(["modules", 1, "ptx"], "missing.ptx"))
case("ptx-outside-dir", "modules[0].ptx: '../scale.ptx' must be a file name relative to the artifact directory",
     edit=setp(["modules", 0, "ptx"], "../scale.ptx"))
case("invalid-json", "invalid JSON", text='{"format": "blockbuster-artifact", "version": 1,\n')
case("wrong-format", 'format: expected "blockbuster-artifact", got "onnx"',
     edit=setp(["format"], "onnx"))
case("wrong-version", "version: version 2 is not supported (this runtime reads version 1)",
     edit=setp(["version"], 2))
case("missing-launches", "missing field 'launches'", edit=setp(["launches"], DELETE))
case("bytes-mismatch", "buffers[3] ('tmp0').bytes: is 4004, but shape [1000] of f32 is 4000 bytes",
     edit=setp(["buffers", 3, "bytes"], 4004))
case("constant-output", "buffers[2] ('res0').constant: only inputs can be constants, this buffer is an output",
     edit=setp(["buffers", 2, "constant"], "proj.weight"))
case("unknown-dtype", "buffers[0] ('arg0').dtype: 'f8' is not one of f16 bf16 f32 f64 i1 i8 i16 i32 i64",
     edit=setp(["buffers", 0, "dtype"], "f8"))
case("negative-extent", "buffers[2] ('res0').shape: expected non-negative integers, got [10, -100]",
     edit=setp(["buffers", 2, "shape"], [10, -100]))
case("duplicate-position", "buffers[1] ('arg1').position: two inputs have position 0",
     edit=setp(["buffers", 1, "position"], 0))
case("missing-position", "buffers: the input positions are [0, 2]; position 1 is missing",
     edit=setp(["buffers", 1, "position"], 2))
case("unknown-buffer", 'launches[1] (\'add\').params[1]: unknown buffer "arg7"',
     edit=setp(["launches", 1, "params", 1], {"buffer": "arg7"}))
case("unknown-module", "launches[0].module: unknown module 'gemm'",
     edit=setp(["launches", 0, "module"], "gemm"))
case("missing-kernel", "launches[1] ('add_kernel').kernel: the PTX of module 'add_module' (add.ptx) has no .entry add_kernel (entries: add)",
     edit=setp(["launches", 1, "kernel"], "add_kernel"))
case("param-count", "launches[1] ('add').params: 3 parameters, but .entry add in add.ptx takes 4",
     edit=lambda m: m["launches"][1]["params"].pop())
case("param-size", "launches[0] ('scale').params[3]: binds a f64 scalar (8 bytes), but parameter 3 of .entry scale in the PTX is 4 bytes",
     edit=setp(["launches", 0, "params", 3], {"scalar": "f64", "value": 2.5}))
case("descriptor-abi", "launches[1] ('add').params[0]: binds buffer 'tmp0' (a device pointer, 8 bytes), but parameter 0 of .entry add in the PTX is 56 bytes (a memref descriptor? kernels must use the bare-pointer calling convention)",
     ptx_edit={"add.ptx": lambda s: s.replace(".param .u64 add_param_0", ".param .align 8 .b8 add_param_0[56]")})
case("scalar-range", "launches[0] ('scale').params[2]: value 1.5 is not a valid i64",
     edit=setp(["launches", 0, "params", 2], {"scalar": "i64", "value": 1.5}))
case("param-form", 'launches[0] (\'scale\').params[0]: expected {"buffer": NAME}, {"scalar": DTYPE, "value": V} or {"tensor_map": {...}}',
     edit=setp(["launches", 0, "params", 0], {"buffer": "arg0", "scalar": "i64"}))
case("block-too-large", "launches[0] ('scale').block: [64, 32, 1] is 2048 threads; at most 1024",
     edit=setp(["launches", 0, "block"], [64, 32, 1]))
case("grid-zero", "launches[1] ('add').grid: x is 0; it must be in [1, 2147483647]",
     edit=setp(["launches", 1, "grid"], [0, 1, 1]))
case("reqntid", "launches[0] ('scale').block: [128, 1, 1], but the PTX requires .reqntid 256, 1, 1",
     ptx_edit={"scale.ptx": lambda s: s.replace(")\n{", ")\n.reqntid 256, 1, 1\n{", 1)})
case("cluster-grid", "launches[0] ('scale').cluster: [3, 1, 1] does not divide the grid [8, 1, 1]",
     edit=setp(["launches", 0, "cluster"], [3, 1, 1]))
case("cluster-size", "launches[1] ('add').cluster: [8, 2, 1] is 16 blocks; at most 8",
     edit=setp(["launches", 1, "cluster"], [8, 2, 1]))
case("unwritten-output", "launches: output 'res0' is passed to no kernel, so nothing would write it",
     edit=setp(["launches", 1, "params", 2], {"buffer": "tmp0"}))
TMAP = {"buffer": "arg0", "dtype": "f32", "global_shape": [10, 100],
        "box": [8, 32], "swizzle": "128B", "l2_promotion": "none", "oob_fill": "zero"}


def tensor_map(chip="sm_90a", **changes):
    def edit(m):
        m["target"]["chip"] = chip
        m["launches"][0]["params"][0] = {"tensor_map": dict(TMAP, **changes)}
    return edit


case("tensor-map-chip", "target.chip: sm_90, but tensor-map (TMA) kernels are compiled for an architecture-specific chip such as sm_90a",
     edit=tensor_map(chip="sm_90"))
case("tensor-map-shape", "launches[0] ('scale').params[0].tensor_map: describes a 100x10 f32 array, but buffer 'arg0' is 10x100 f32",
     edit=tensor_map(global_shape=[100, 10]))
case("tensor-map-box", "launches[0] ('scale').params[0].tensor_map.box: must give 1..256 elements for each of the 2 dimensions",
     edit=tensor_map(box=[8, 512]))
case("tensor-map-swizzle", "launches[0] ('scale').params[0].tensor_map.box: an inner box row of 256 bytes exceeds the 128B swizzle",
     edit=tensor_map(box=[8, 64]))
case("tensor-map-option", 'launches[0] (\'scale\').params[0].tensor_map.l2_promotion: "512B" is not one of none 64B 128B 256B',
     edit=tensor_map(l2_promotion="512B"))
case("no-manifest", "manifest.json: cannot read", text=None, files=True)
os.remove(os.path.join(out, "no-manifest", "manifest.json"))
