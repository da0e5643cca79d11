#!/usr/bin/env python3
"""Runs every artifact under ARTIFACTS_ROOT on the GPU and checks it against
an fp32 PyTorch reference (python/blockbuster/references.py).

    python3 scripts/gpu-check.py ARTIFACTS_ROOT [--seed N] [--device I]

For each directory under the root that holds a manifest.json: validate it,
generate fresh random inputs with torch (floats uniform in [-1, 1) in the
artifact's dtype, integers in [-8, 8]), poison the outputs with NaN, run the
artifact through the pure-Python runtime (python/blockbuster/runtime.py),
compute the reference of the function the manifest names ("reference", else
"entry") in fp32 on the same inputs, and compare: rtol 1e-4 (f32) or 2e-2
(f16/bf16 anywhere), elementwise with atol = rtol * max|ref| and normwise;
NaN always fails. One line per artifact, then a summary; exit status 1 if
any artifact fails. Needs PyTorch and a CUDA device; no MLIR.

`--numpy` does the same without PyTorch: NumPy inputs copied to the device,
a float64 NumPy reference (test/Runtime/CUDA/gpu-check.test runs it over a
stand-in libcuda, so the script itself is tested where there is no GPU).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from blockbuster import artifact as bb_artifact  # noqa: E402
from blockbuster import references, runtime  # noqa: E402
from blockbuster.check import Comparison, default_rtol  # noqa: E402


def find_artifacts(root):
    if os.path.isfile(os.path.join(root, bb_artifact.MANIFEST)):
        return [root]
    found = []
    for directory, subdirs, files in os.walk(root):
        subdirs.sort()
        if bb_artifact.MANIFEST in files:
            found.append(directory)
    return sorted(found)


def random_inputs(torch, buffers, device, generator):
    dtypes = {k: getattr(torch, v[1]) for k, v in runtime.DTYPES.items()}
    tensors = []
    for b in buffers:
        dt = dtypes[b.dtype]
        if b.dtype in ("f16", "bf16", "f32", "f64"):
            t = torch.rand(b.shape, generator=generator, dtype=torch.float64,
                           device=device) * 2 - 1
        elif b.dtype == "i1":
            t = torch.randint(0, 2, b.shape, generator=generator, device=device)
        else:
            t = torch.randint(-8, 9, b.shape, generator=generator, device=device)
        tensors.append(t.to(dt).contiguous())
    return tensors


def to_numpy(torch, t):
    return t.detach().to(torch.float64).cpu().numpy()


class NumpyBackend:
    """The --numpy path: host inputs, run_numpy, the NumPy references."""

    def __init__(self, seed):
        import numpy as np
        self.np = np
        self.rng = np.random.default_rng(seed)

    def inputs(self, buffers):
        from blockbuster.seeded import NUMPY_DTYPES, round_to_bf16_bits
        arrays = []
        for b in buffers:
            if b.dtype in ("f16", "bf16", "f32", "f64"):
                values = self.rng.uniform(-1, 1, b.shape)
                arrays.append(round_to_bf16_bits(values) if b.dtype == "bf16"
                              else values.astype(NUMPY_DTYPES[b.dtype]))
            elif b.dtype == "i1":
                arrays.append(self.rng.integers(0, 2, b.shape).astype(bool))
            else:
                arrays.append(self.rng.integers(-8, 9, b.shape).astype(NUMPY_DTYPES[b.dtype]))
        return arrays

    def as_f64(self, array, dtype):
        from blockbuster.seeded import bf16_bits_to_f32
        array = bf16_bits_to_f32(array) if dtype == "bf16" else array
        return self.np.asarray(array, dtype=self.np.float64)


def check_one(torch, path, args):
    """Returns (status, line)."""
    name = os.path.relpath(path, args.root) if path != args.root else os.path.basename(path)
    try:
        art = bb_artifact.load(path)
    except bb_artifact.ArtifactError as e:
        return "FAIL", "FAIL %s: bad artifact: %s" % (name, e)
    ref_name = art.manifest.get("reference", art.entry)
    if ref_name not in references.REFERENCES:
        return "SKIP", "SKIP %s: @%s has no reference in references.py" % (name, art.entry)
    try:
        start = time.perf_counter()
        prog = runtime.Program(art, device=args.device)
        load_s = time.perf_counter() - start
        if torch is None:
            backend = NumpyBackend(args.seed)
            inputs = backend.inputs(art.inputs)
            outputs = prog.run_numpy(*inputs, poison=True)
            if args.inject_error:
                o = outputs[0].reshape(-1)
                o[0] += 1 + abs(o).max()
            ref = references.run(ref_name, inputs, "numpy",
                                 [b.dtype for b in art.inputs])
            outputs = [backend.as_f64(o, b.dtype) for o, b in zip(outputs, art.outputs)]
            host = lambda t: t  # noqa: E731
        else:
            device = "cuda:%d" % args.device
            generator = torch.Generator(device=device)
            generator.manual_seed(args.seed)
            inputs = random_inputs(torch, art.inputs, device, generator)
            outputs = prog(*inputs, poison=True)
            torch.cuda.synchronize()
            if args.inject_error:
                o = outputs[0].view(-1)
                o[0] += 1 + o.abs().max()
            ref = [r.to(torch.float32) for r in references.run(ref_name, inputs, "torch")]
            torch.cuda.synchronize()
            host = lambda t: to_numpy(torch, t)  # noqa: E731
    except (runtime.CudaError, runtime.TensorError) as e:
        return "FAIL", "FAIL %s: %s" % (name, e)
    except Exception as e:  # a reference that does not fit, say: report, go on
        return "FAIL", "FAIL %s: %s: %s" % (name, type(e).__name__, e)
    rtol = args.rtol or default_rtol([b.dtype for b in art.inputs + art.outputs])
    parts, passed = [], True
    for b, out, r in zip(art.outputs, outputs, ref):
        c = Comparison(host(out), host(r), rtol)
        passed &= c.passed
        part = "%s %s: %s" % (b.name, b.describe(), c.summary())
        if c.first_bad is not None:
            part += " (first bad %s: got %.8g, ref %.8g)" % (
                list(c.first_bad), float(out[c.first_bad]), float(r[c.first_bad]))
        parts.append(part)
    prog.close()
    line = "%s %s (@%s, %d launches, rtol %g, PTX load %.2f s): %s" % (
        "PASS" if passed else "FAIL", name, art.entry, len(art.launches), rtol,
        load_s, "; ".join(parts))
    return ("PASS" if passed else "FAIL"), line


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", help="a directory of artifacts (or one artifact)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--rtol", type=float, default=None,
                        help="override the tolerance (default 1e-4 f32, 2e-2 f16/bf16)")
    parser.add_argument("--inject-error", action="store_true",
                        help="test the checker: perturb the first output element")
    parser.add_argument("--numpy", action="store_true",
                        help="no PyTorch: NumPy inputs and a float64 NumPy reference")
    args = parser.parse_args()

    if args.numpy:
        torch = None
        device_name, version = "NumPy path", "no torch"
    else:
        import torch
        # An fp32 reference: no TF32 in matmuls.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        device_name, version = torch.cuda.get_device_name(args.device), torch.__version__
    paths = find_artifacts(args.root)
    if not paths:
        print("gpu-check: no artifact (directory with %s) under %s"
              % (bb_artifact.MANIFEST, args.root))
        return 1
    print("gpu-check: %s, torch %s, seed %d" % (device_name, version, args.seed))
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for path in paths:
        status, line = check_one(torch, path, args)
        counts[status] += 1
        print(line, flush=True)
    print("gpu-check: %d passed, %d failed, %d skipped"
          % (counts["PASS"], counts["FAIL"], counts["SKIP"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
