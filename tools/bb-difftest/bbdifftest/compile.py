"""The production-size mode: a program is compiled for the GPU, not run.

For a program P (Linalg on tensors, production sizes) and its settings:

1. `bb-compile P -o DIR --whole-threshold T`: convert, fuse, select, lower
   to PTX. A compile either succeeds or is refused with a diagnostic: exit
   status 1 and an `error:` line that names a location. Anything else (a
   signal, another exit status, a failure without a diagnostic, no result
   in time) is a failure of the compiler.
2. `ptxas -arch=sm_90` on every PTX file of the artifact (where ptxas
   exists): every kernel the compiler writes must assemble.

The result's kind is "compiled", "refused" (the first error line is its
detail) or a failure kind: "compile-crash", "compile-timeout",
"compile-error" (a non-zero exit without a located diagnostic), "ptxas".
"""

import glob
import os
import re
import shutil
import subprocess
import tempfile

from .harness import Result, crashed, first_line, quote

TIMEOUT_S = 300
# A located diagnostic, as MLIR prints it (`FILE:LINE:COL: error: ...`) or
# as bb-compile prints one of its own (`bb-compile: error: ...`).
DIAGNOSTIC = re.compile(r"^(\S+:\d+:\d+|bb-compile): error: ", re.M)


def find_ptxas():
    return shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas"
        if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else None)


def compile_check(text, config, bb_compile, ptxas, workdir=None):
    """Compiles program `text` with its `config`; returns a Result whose
    kind is "compiled", "refused" or a failure kind."""
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="bb-difftest-gpu-") as d:
            return compile_check(text, config, bb_compile, ptxas, d)
    with open(os.path.join(workdir, "prog.mlir"), "w") as fh:
        fh.write(text)
    cmd = [bb_compile, "prog.mlir", "-o", "artifact",
           "--whole-threshold", str(config["whole-threshold"])]
    cmds = [quote(cmd)]
    try:
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Result("compile-timeout", "no result in %d s" % TIMEOUT_S,
                      cmds)
    if crashed(proc):
        return Result("compile-crash", first_line(proc.stderr), cmds)
    if proc.returncode == 1 and DIAGNOSTIC.search(proc.stderr):
        line = next(l for l in proc.stderr.splitlines()
                    if DIAGNOSTIC.match(l))
        return Result("refused", line.split("error: ", 1)[1][:240], cmds)
    if proc.returncode != 0:
        return Result("compile-error", "exit %d: %s" % (
            proc.returncode, first_line(proc.stderr)), cmds)
    if ptxas:
        for ptx in sorted(glob.glob(os.path.join(workdir, "artifact",
                                                 "*.ptx"))):
            pcmd = [ptxas, "-arch=sm_90", ptx, "-o", os.devnull]
            cmds.append(quote(pcmd))
            res = subprocess.run(pcmd, capture_output=True, text=True)
            if res.returncode != 0:
                return Result("ptxas", "%s: %s" % (
                    os.path.basename(ptx), first_line(res.stderr)), cmds)
    return Result("compiled", "", cmds)
