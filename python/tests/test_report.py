"""The fusion report's dataclasses (blockbuster/report.py) on block-report's
JSON: every figure typed, several programs in one text, dict-style reads of
the JSON keys, and the library search order of capi.py."""

import json
import os
import sys

import pytest

import conftest  # noqa: F401  (python/ on sys.path)
from blockbuster import capi
from blockbuster.report import Intermediate, KernelReport, Report, parse_reports

KERNEL = {"grid": ["a0"], "instances": 8, "global_bytes_read": 100,
          "global_bytes_written": 40, "flops": 7, "local_bytes_peak": 64,
          "register_bytes_peak": 16, "shared_bytes_peak": 48}


def program(name, kernels):
    return {"program": name, "block_sizes": {"a0": 64}, "kernels": kernels,
            "buffered_edges": kernels - 1, "global_bytes": 140, "flops": 7,
            "local_bytes_peak": 64, "register_bytes_peak": 16,
            "shared_bytes_peak": 48,
            "intermediates": [{"shape": [4, 8], "element_type": "f32",
                               "bytes": 128, "readers": 1}],
            "per_kernel": [KERNEL] * kernels}


def test_reports_of_two_programs():
    text = (json.dumps(program("first", 1), indent=2) + "\n"
            + json.dumps(program("second", 2)))
    first, second = parse_reports(text)
    assert first.program == "first" and second.program == "second"
    assert (first.kernels, second.kernels) == (1, 2)
    assert second.buffered_edges == 1
    assert first.block_sizes == {"a0": 64}
    assert first.intermediates == (Intermediate((4, 8), "f32", 128, 1),)
    assert second.per_kernel == (KernelReport(("a0",), 8, 100, 40, 7, 64, 16,
                                              48),) * 2
    # The JSON keys read as before the dataclasses.
    assert second["kernels"] == 2 and second["per_kernel"][0]["grid"] == ["a0"]
    assert second.raw == program("second", 2)
    assert parse_reports("  \n") == []


def test_missing_figure_is_an_error():
    obj = program("p", 1)
    del obj["flops"]
    with pytest.raises(KeyError, match="flops"):
        Report.from_json(obj)


def test_library_search_order(monkeypatch, tmp_path):
    for variable in ("BLOCKBUSTER_CAPI", "BLOCKBUSTER_BUILD", "BLOCKBUSTER_PREFIX"):
        monkeypatch.delenv(variable, raising=False)
    package = os.path.dirname(os.path.abspath(capi.__file__))
    whys = [why for _, why in capi.library_candidates()]
    # From the checkout: the package, the environment's prefix, the build.
    assert whys == ["inside the package", "sys.prefix", "the checkout's build",
                    "the dynamic loader's search path"]
    monkeypatch.setenv("BLOCKBUSTER_PREFIX", str(tmp_path))
    monkeypatch.setenv("BLOCKBUSTER_CAPI", str(tmp_path / "named.so"))
    candidates = capi.library_candidates()
    assert candidates[0] == (str(tmp_path / "named.so"), "$BLOCKBUSTER_CAPI")
    assert candidates[1] == (str(tmp_path / "lib" / "libBlockbusterCAPI.so"),
                             "$BLOCKBUSTER_PREFIX")
    # A variable names the library even where there is none yet (the load
    # error then says so); otherwise the first existing file wins.
    assert capi.library_path() == str(tmp_path / "named.so")
    monkeypatch.delenv("BLOCKBUSTER_CAPI")
    monkeypatch.delenv("BLOCKBUSTER_PREFIX")
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libBlockbusterCAPI.so").write_bytes(b"")
    if not os.path.isfile(os.path.join(package, "lib", "libBlockbusterCAPI.so")):
        assert capi.library_path() == str(tmp_path / "lib" / "libBlockbusterCAPI.so")
