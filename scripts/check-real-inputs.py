#!/usr/bin/env python3
"""Runs `bb-run --check` on every public function of third-party Linalg inputs.

For every `.mlir` file of a directory (default: test/Inputs/real of the
repository), sorted by name: split it on lines that are exactly `// -----`
(as mlir-opt --split-input-file does), write each chunk to a temporary file,
find its public `func.func @NAME` definitions (private functions and
declarations are skipped), and run

    bb-run CHUNK --entry NAME --check

on each (300 s timeout). Each function is classified as

  PASS     bb-run checked every output and printed PASS;
  FAIL     bb-run ran the check and printed FAIL, crashed, or timed out:
           a bug, reported loudly on stderr;
  REFUSED  bb-run exited non-zero before checking; the reason is its first
           `error:` line with the path of the chunk stripped.

Prints a markdown table (file, function, result, reason/errors) and the line
`real inputs: N passed, N failed, N refused`. Exits 1 if any function FAILs.
Python 3 standard library only. docs/RealInputs.md has the inputs and results.

    scripts/check-real-inputs.py [--dir DIR] [--bb-run PATH] [--markdown OUT.md]
                                 [FILE.mlir ...]   (only these files of DIR)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.path.join(REPO, "test", "Inputs", "real")
DEFAULT_BB_RUN = os.path.join(REPO, "build", "bin", "bb-run")
TIMEOUT_S = 300
SPLIT_MARKER = "// -----"

OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
CLOSE = {v: k for k, v in OPEN.items()}


def split_chunks(text):
    """Splits like mlir-opt --split-input-file: on lines that are exactly
    `// -----`. Returns (first line number, chunk text) pairs."""
    chunks, current, start = [], [], 1
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.rstrip("\r\n") == SPLIT_MARKER:
            chunks.append((start, "".join(current)))
            current, start = [], number + 1
        else:
            current.append(line)
    chunks.append((start, "".join(current)))
    return chunks


def strip_comments(text):
    """Blanks `//` comments outside string literals, keeping offsets."""
    out, i, n, in_string = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def skip_space(text, i):
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def skip_balanced(text, i):
    """text[i] opens a bracket; returns the index after its match. `->`
    inside function types is not a closing `>`; strings are skipped."""
    stack, n = [], len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in OPEN:
            stack.append(OPEN[c])
        elif c in CLOSE and not (c == ">" and i > 0 and text[i - 1] == "-"):
            if not stack or stack[-1] != c:
                return n  # unbalanced: give up on this function
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    return n


def skip_type(text, i):
    """Skips one type (e.g. `tensor<1x2xf32>`, `f64`, `!llvm.ptr`)."""
    n = len(text)
    while i < n and not text[i].isspace() and text[i] not in ",{}":
        if text[i] in "<([":
            i = skip_balanced(text, i)
        else:
            i += 1
    return i


FUNC_RE = re.compile(
    r"\bfunc\.func\s+(?:(public|private|nested)\s+)?@([A-Za-z_$.][\w$.\-]*|\"[^\"]*\")\s*\(")


def public_functions(chunk):
    """Names of the public func.func definitions (with a body) of a chunk,
    in order of appearance."""
    text = strip_comments(chunk)
    names = []
    for match in FUNC_RE.finditer(text):
        visibility, name = match.group(1), match.group(2)
        if name.startswith('"'):
            name = name[1:-1]
        i = skip_balanced(text, match.end() - 1)  # the arguments
        i = skip_space(text, i)
        if text.startswith("->", i):
            i = skip_space(text, i + 2)
            i = skip_balanced(text, i) if text[i:i + 1] == "(" else skip_type(text, i)
            i = skip_space(text, i)
        if re.match(r"attributes\b", text[i:]):
            i = skip_space(text, i + len("attributes"))
            i = skip_balanced(text, i)
            i = skip_space(text, i)
        has_body = text[i:i + 1] == "{"
        if has_body and visibility in (None, "public"):
            names.append(name)
    return names


def classify(bb_run, chunk_path, name):
    """Runs bb-run --check on one function. Returns (result, detail, loud)."""
    cmd = [bb_run, chunk_path, "--entry", name, "--check"]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, errors="replace", timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "FAIL", "timed out after %d s" % TIMEOUT_S, True
    out, err = proc.stdout, proc.stderr
    strip = lambda s: s.replace(chunk_path + ":", "").replace(chunk_path, "<chunk>")
    lines = out.splitlines()
    outputs = [l for l in lines if l.startswith("output #")]
    verdict = lines[-1].strip() if lines else ""
    if proc.returncode < 0 or proc.returncode > 1 or "PLEASE submit a bug report" in err \
            or "Stack dump" in err:
        messages = [l for l in strip(err).splitlines()
                    if re.search(r"Assertion|LLVM ERROR|error:", l)]
        message = messages[0].strip() if messages else first_line(strip(err))
        return "FAIL", "CRASH (exit status %d): %s" % (
            proc.returncode, message or "no message"), True
    if proc.returncode == 0 and verdict == "PASS":
        return "PASS", "; ".join(summarize(l) for l in outputs), False
    if verdict == "FAIL":
        failing = [summarize(l) for l in outputs if l.endswith("FAIL")]
        return "FAIL", "; ".join(failing) or "FAIL", True
    if proc.returncode == 0:
        return "FAIL", "exit status 0 without PASS", True
    errors = [l for l in strip(err).splitlines() if "error:" in l]
    reason = errors[0] if errors else first_line(strip(err)) or "no message"
    reason = re.sub(r"^(bb-run: )?(\d+:\d+: )?error: ", "", reason.strip())
    return "REFUSED", reason, False


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def summarize(line):
    """`output #0 (AxBxf32): ..., max_abs_err E, ..., norm_rel_err R, ...: PASS`
    -> `#0 AxBxf32 max_abs_err E norm_rel_err R`."""
    m = re.match(r"output (#\d+) \(([^)]*)\):", line)
    fields = dict(re.findall(r"(max_abs_err|norm_rel_err|mismatches|nan) ([^,:]+)", line))
    head = "%s %s" % (m.group(1), m.group(2)) if m else line
    keys = ["max_abs_err", "norm_rel_err"]
    if line.endswith("FAIL"):
        keys += ["mismatches", "nan"]
    return " ".join([head] + ["%s %s" % (k, fields[k]) for k in keys if k in fields])


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bb-run", default=DEFAULT_BB_RUN, help="bb-run binary")
    parser.add_argument("--dir", default=DEFAULT_DIR, help="directory of .mlir inputs")
    parser.add_argument("--markdown", metavar="OUT.md", help="also write the table here")
    parser.add_argument("files", nargs="*",
                        help="only these files of --dir (default: every .mlir file)")
    args = parser.parse_args()

    bb_run = shutil.which(args.bb_run) if os.sep not in args.bb_run else args.bb_run
    if not bb_run or not os.access(bb_run, os.X_OK):
        sys.exit("check-real-inputs: bb-run not found or not executable: %s "
                 "(build it: scripts/build.sh bb-run)" % args.bb_run)
    if not os.path.isdir(args.dir):
        sys.exit("check-real-inputs: no directory %s" % args.dir)
    names = sorted(f for f in os.listdir(args.dir) if f.endswith(".mlir"))
    if args.files:
        missing = [f for f in args.files if f not in names]
        if missing:
            sys.exit("check-real-inputs: not in %s: %s" % (args.dir, ", ".join(missing)))
        names = [f for f in names if f in args.files]

    rows, counts = [], {"PASS": 0, "FAIL": 0, "REFUSED": 0}
    with tempfile.TemporaryDirectory(prefix="bb-real-inputs-") as tmp:
        for filename in names:
            with open(os.path.join(args.dir, filename), encoding="utf-8") as f:
                chunks = split_chunks(f.read())
            for index, (start_line, chunk) in enumerate(chunks):
                functions = public_functions(chunk)
                if not functions:
                    continue
                label = filename if len(chunks) == 1 else "%s (chunk %d, line %d)" % (
                    filename, index, start_line)
                chunk_path = os.path.join(tmp, "chunk%d.mlir" % index)
                with open(chunk_path, "w", encoding="utf-8") as f:
                    f.write(chunk)
                for name in functions:
                    result, detail, loud = classify(bb_run, chunk_path, name)
                    counts[result] += 1
                    rows.append((label, "@" + name, result, detail))
                    if loud:
                        print("check-real-inputs: *** %s: %s @%s: %s" % (
                            result, label, name, detail), file=sys.stderr)

    table = ["| file | function | result | reason / errors |",
             "|---|---|---|---|"]
    table += ["| %s | `%s` | %s | %s |" % (cell(a), cell(b), c, cell(d)) for a, b, c, d in rows]
    summary = "real inputs: %d passed, %d failed, %d refused" % (
        counts["PASS"], counts["FAIL"], counts["REFUSED"])
    text = "\n".join(table) + "\n\n" + summary + "\n"
    sys.stdout.write(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text)
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
