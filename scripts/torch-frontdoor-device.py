#!/usr/bin/env python3
"""The PyTorch front door end to end on a GPU machine that has no MLIR.

`blockbuster.torch.compile` and the `torch.compile` backend ("blockbuster")
export with torch-mlir and compile with libBlockbusterCAPI.so on the machine
that runs them, so both travel there: scripts/prepare-frontdoor-carry.sh
packs a libBlockbusterCAPI.so linked statically against MLIR and LLVM and
the parts of a torch-mlir wheel for the machine's Python that
`torch_mlir.fx.export_and_import` needs, xz-compressed. This script runs
there (docs/RealInputs.md, "The front door on the H100"):

  unpack ARCHIVE... --into DIR
      NAME.tar.xz is extracted into DIR/site (torch_mlir), NAME.xz
      decompressed into DIR/NAME.
  export [--only NAME...] [--out DIR]
      torch-mlir alone: exports each module with blockbuster.torch.export
      (the machine's torch, torch.export) and prints the size of its Linalg
      (written to DIR/NAME.mlir with --out).
  run [--only NAME...] [--device cuda|cpu]
      for the Llama block and nn.TransformerEncoderLayer of
      scripts/export-torch-corpus.py (each size and batch): model(x) in
      eager (TF32 off), then
        compile: blockbuster.torch.compile(model, x) (a GPU artifact when x
                 is on the GPU) called on x and on a second input x2;
        backend: torch.compile(model, backend="blockbuster") on x and x2,
                 every FX graph compiled by Blockbuster (a graph refused and
                 run eagerly fails the row);
      each output compared with eager's as bb-run compares: normwise
      relative error <= 1e-4 (f32), no NaN.

With PYTHONPATH holding DIR/site and python/, and BLOCKBUSTER_CAPI naming
DIR/libBlockbusterCAPI.so. `run` exits 1 on any failure; `--device cpu`
checks the script on a machine without a GPU (the CPU target).
"""

import argparse
import importlib.util
import lzma
import os
import shutil
import sys
import tarfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ("llama_block", "encoder_layer")


def corpus():
    spec = importlib.util.spec_from_file_location(
        "export_torch_corpus", os.path.join(REPO, "scripts",
                                            "export-torch-corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def selected(c, only):
    for name, module, size, batch in c.corpus():
        if module in MODULES and (not only or any(o in name for o in only)):
            yield name, module, size, batch


def unpack(args):
    os.makedirs(args.into, exist_ok=True)
    for archive in args.archives:
        start = time.time()
        base = os.path.basename(archive)
        if base.endswith(".tar.xz"):
            target = os.path.join(args.into, "site")
            with tarfile.open(archive, "r:xz") as tar:
                tar.extractall(target)
        else:
            target = os.path.join(args.into, base[:-len(".xz")])
            with lzma.open(archive) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        print("unpacked %s into %s (%.1f s)" % (base, target,
                                                time.time() - start))
    return 0


def versions():
    import torch
    from importlib.metadata import version
    import torch_mlir
    print("torch %s, torch-mlir %s (%s), python %s" % (
        torch.__version__, version("torch-mlir"), list(torch_mlir.__path__)[0],
        sys.version.split()[0]))


def export(args):
    import blockbuster.torch as bbt
    versions()
    c = corpus()
    failed = 0
    for name, module, size, batch in selected(c, args.only):
        model, inputs = c.build(module, size, batch)
        start = time.time()
        try:
            text, _ = bbt.export(model, *inputs, name=name)
        except Exception as error:  # reported, then the next module
            failed += 1
            print("%s: export FAILED: %s" % (name, error), flush=True)
            continue
        print("%s: exported, %d lines of Linalg (%.1f s)" % (
            name, text.count("\n"), time.time() - start), flush=True)
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            with open(os.path.join(args.out, name + ".mlir"), "w") as f:
                f.write(text)
    return 1 if failed else 0


def normwise(out, ref):
    import torch
    out, ref = out.detach().double(), ref.detach().double()
    if torch.isnan(out).any():
        return float("nan")
    return (torch.linalg.vector_norm(out - ref)
            / torch.linalg.vector_norm(ref)).item()


def run(args):
    import torch
    import blockbuster.torch as bbt
    versions()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if args.device == "cuda":
        print("device: %s" % torch.cuda.get_device_name(0))
    c = corpus()
    tolerance = 1e-4
    passed = failed = 0

    def report(name, way, errors, detail):
        nonlocal passed, failed
        ok = all(e <= tolerance for e in errors)  # NaN compares False
        passed += ok
        failed += not ok
        print("%s: %s: %s: normwise relative error %s (tolerance %g), %s" % (
            name, way, "PASS" if ok else "FAIL",
            " / ".join("%.3g" % e for e in errors), tolerance, detail),
            flush=True)

    for name, module, size, batch in selected(c, args.only):
        model, inputs = c.build(module, size, batch)
        model = model.to(args.device)
        inputs = [x.to(args.device) for x in inputs]
        second = [torch.randn_like(x) for x in inputs]
        with torch.no_grad():
            refs = [model(*inputs), model(*second)]

        start = time.time()
        try:
            compiled = bbt.compile(model, *inputs, name=name)
            seconds = time.time() - start
            outs = [compiled(*inputs), compiled(*second)]
            report(name, "blockbuster.torch.compile",
                   [normwise(o, r) for o, r in zip(outs, refs)],
                   "target %s, %s kernels, %d weights bound by name, "
                   "export + compile %.1f s" % (
                       compiled.target,
                       "+".join(str(r.kernels) for r in compiled.report),
                       len(compiled.weights), seconds))
        except Exception as error:  # a refusal is a failure here
            failed += 1
            print("%s: blockbuster.torch.compile: FAIL: %s: %s" % (
                name, type(error).__name__, str(error).splitlines()[0]),
                flush=True)

        torch._dynamo.reset()
        first_graph = len(bbt._graph_names)
        del bbt.refusals[:]
        start = time.time()
        try:
            optimized = torch.compile(model, backend="blockbuster",
                                      dynamic=False)
            with torch.no_grad():
                outs = [optimized(*inputs), optimized(*second)]
            seconds = time.time() - start
            graphs = len(bbt._graph_names) - first_graph
            errors = [normwise(o, r) for o, r in zip(outs, refs)]
            if bbt.refusals or not graphs:
                errors.append(float("nan"))
            report(name, "torch.compile(backend=\"blockbuster\")", errors,
                   "%d FX graphs compiled, %d refused%s, first call %.1f s"
                   % (graphs - len(bbt.refusals), len(bbt.refusals),
                      "".join(" (%s: %s)" % r for r in bbt.refusals),
                      seconds))
        except Exception as error:
            failed += 1
            print("%s: torch.compile(backend=\"blockbuster\"): FAIL: %s: %s"
                  % (name, type(error).__name__,
                     str(error).splitlines()[0]), flush=True)
    print("torch front door: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("unpack")
    p.add_argument("archives", nargs="+")
    p.add_argument("--into", required=True)
    for command in ("export", "run"):
        p = sub.add_parser(command)
        p.add_argument("--only", nargs="*", default=[])
        if command == "run":
            p.add_argument("--device", default="cuda",
                           choices=("cuda", "cpu"))
        else:
            p.add_argument("--out")
    args = parser.parse_args()
    return {"unpack": unpack, "export": export, "run": run}[args.command](
        args)


if __name__ == "__main__":
    sys.exit(main())
