#!/usr/bin/env python3
"""Writes the seed corpus of bb-fuzz (docs/Fuzzing.md) to tools/bb-fuzz/corpus.

Seeds: the block examples, the Linalg examples and their conversion to block
programs (made with BB_OPT, default build/bin/bb-opt), and every case of the
dialect, conversion and fusion-rule tests (split at `// -----`, comment lines
dropped). Cases longer than --max-len bytes are left out (libFuzzer would cut
them); identical cases are kept once. Names are stable: source and case index.
"""
import argparse
import glob
import hashlib
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cases(path):
    text = open(path, encoding="latin-1").read()
    for index, case in enumerate(text.split("// -----")):
        lines = [l for l in case.splitlines() if not l.lstrip().startswith("//")]
        body = "\n".join(lines).strip() + "\n"
        if body.strip():
            yield index, body


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-len", type=int, default=4096)
    parser.add_argument("--bb-opt", default=os.environ.get(
        "BB_OPT", os.path.join(root, "build", "bin", "bb-opt")))
    parser.add_argument("--out", default=os.path.join(root, "tools", "bb-fuzz", "corpus"))
    args = parser.parse_args()

    seeds = {}
    sources = (sorted(glob.glob(os.path.join(root, "examples", "*", "*.mlir"))) +
               sorted(glob.glob(os.path.join(root, "test", "Dialect", "Block", "*.mlir"))) +
               sorted(glob.glob(os.path.join(root, "test", "Conversion", "*", "*.mlir"))) +
               sorted(glob.glob(os.path.join(root, "test", "Transforms", "block-fuse", "*.mlir"))) +
               sorted(glob.glob(os.path.join(root, "test", "Tools", "Inputs", "*.mlir"))))
    for path in sources:
        stem = os.path.splitext(os.path.basename(path))[0]
        for index, body in cases(path):
            seeds["%s-%d" % (stem, index)] = body
    for path in sorted(glob.glob(os.path.join(root, "examples", "linalg", "*.mlir"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        converted = subprocess.run(
            [args.bb_opt, path, "--convert-linalg-to-block=whole-threshold=64"],
            check=True, capture_output=True, text=True).stdout
        seeds["%s-converted" % stem] = converted

    os.makedirs(args.out, exist_ok=True)
    seen = set()
    kept = 0
    for name in sorted(seeds):
        body = seeds[name]
        digest = hashlib.sha1(body.encode("latin-1")).hexdigest()
        if len(body.encode("latin-1")) > args.max_len or digest in seen:
            continue
        seen.add(digest)
        with open(os.path.join(args.out, name + ".mlir"), "w", encoding="latin-1") as f:
            f.write(body)
        kept += 1
    print("%d seeds in %s" % (kept, os.path.relpath(args.out, root)), file=sys.stderr)


if __name__ == "__main__":
    main()
