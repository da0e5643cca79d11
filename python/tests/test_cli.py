"""``python -m blockbuster`` (blockbuster/__main__.py) through the C API:
compile, report, run with --check, and errors as diagnostics with exit 1."""

import json
import os

import pytest

from conftest import REPO, build_dir
from blockbuster.__main__ import main

LIB = os.environ.get("BLOCKBUSTER_CAPI") or os.path.join(build_dir(), "lib",
                                                         "libBlockbusterCAPI.so")
pytestmark = pytest.mark.skipif(not os.path.exists(LIB),
                                reason="libBlockbusterCAPI.so is not built (%s)" % LIB)

ATTENTION = os.path.join(REPO, "examples", "linalg", "attention.mlir")


def test_compile_prints_the_fused_program(capsys, tmp_path):
    assert main(["compile", ATTENTION]) == 0
    fused = capsys.readouterr().out
    assert "block.program @attention" in fused
    assert main(["compile", ATTENTION, "--no-fuse", "-o",
                 str(tmp_path / "unfused.mlir")]) == 0
    unfused = (tmp_path / "unfused.mlir").read_text()
    assert unfused.count("block.map") > fused.count("block.map")


def test_report(capsys):
    assert main(["report", ATTENTION]) == 0
    assert capsys.readouterr().out.startswith(
        "attention: kernels 1, buffered edges 0, global bytes ")
    assert main(["report", ATTENTION, "--no-fuse", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["program"] == "attention" and report["kernels"] > 1


def test_run_checks_against_upstream(capsys):
    assert main(["run", ATTENTION, "--fuse", "--check",
                 "--block-sizes=a0=48,a1=72"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("output #0 (1000x64xf32): min ")
    assert lines[0].endswith("mismatches 0, nan 0: PASS")
    assert lines[-1] == "PASS"


def test_errors_are_diagnostics(capsys, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {")
    assert main(["report", str(bad)]) == 1
    assert "error: input.mlir:1:14: error:" in capsys.readouterr().err
    missing = str(tmp_path / "missing.mlir")
    assert main(["compile", missing]) == 1
    assert capsys.readouterr().err.startswith(
        "error: [Errno 2] No such file or directory: '%s'" % missing)
    with pytest.raises(SystemExit):
        main(["compile", ATTENTION, "--target", "gpu"])
    assert "--target gpu needs --output-dir" in capsys.readouterr().err
