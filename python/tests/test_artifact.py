"""Manifest validation: every hand-written bad artifact is refused, before
any CUDA call, with the message test/Runtime/CUDA/Inputs/bad-artifacts/*/
expected-error.txt states (the C++ runtime is held to the same texts by
test/Runtime/CUDA/bad-artifacts.test)."""

import os

import pytest

from conftest import ARTIFACTS, BAD_ARTIFACTS
from blockbuster import artifact

BAD = sorted(os.listdir(BAD_ARTIFACTS))


def test_good_artifact():
    a = artifact.load(os.path.join(ARTIFACTS, "scale_add"))
    assert a.entry == "scale_add" and a.chip == "sm_90"
    assert [b.name for b in a.inputs] == ["arg0", "arg1"]
    assert [b.name for b in a.outputs] == ["res0"]
    assert [b.name for b in a.intermediates] == ["tmp0"]
    assert [l.kernel for l in a.launches] == ["scale", "add"]
    scale = a.launches[0]
    assert scale.grid == (8, 1, 1) and scale.block == (128, 1, 1)
    assert [p.buffer.name if p.buffer else (p.scalar, p.value) for p in scale.params] == \
        ["arg0", "tmp0", ("i64", 1000), ("f32", 2.5)]


def test_constant_inputs(tmp_path):
    """Inputs hoisted from the source's constants carry their key
    ("constant"), which binds them by name: Artifact.constants."""
    import json, shutil
    path = tmp_path / "scale_add"
    shutil.copytree(os.path.join(ARTIFACTS, "scale_add"), path)
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["buffers"][1]["constant"] = "proj.weight"
    (path / "manifest.json").write_text(json.dumps(manifest))
    a = artifact.load(str(path))
    assert [b.constant for b in a.inputs] == [None, "proj.weight"]
    assert a.constants == {"proj.weight": [a.inputs[1]]}
    assert artifact.load(os.path.join(ARTIFACTS, "scale_add")).constants == {}


@pytest.mark.parametrize("case", BAD)
def test_bad_artifact(case):
    expected = open(os.path.join(BAD_ARTIFACTS, case, "expected-error.txt")).read().strip()
    with pytest.raises(artifact.ArtifactError) as info:
        artifact.load(os.path.join(BAD_ARTIFACTS, case))
    assert expected in str(info.value)
    # Every message names the manifest it is about.
    assert os.path.join(BAD_ARTIFACTS, case) in str(info.value)


def test_not_a_directory(tmp_path):
    with pytest.raises(artifact.ArtifactError, match="not a directory"):
        artifact.load(str(tmp_path / "nothing"))


def test_ptx_entries():
    ptx = """
    // .entry commented_out(
    .visible .entry k(
        .param .u64 .ptr .align 16 k_param_0,   // a pointer
        .param .f32 k_param_1,
        .param .align 8 .b8 k_param_2[56],
        .param .b16 k_param_3
    )
    .maxntid 128, 1, 1
    {
      ret;
    }
    .visible .entry noparams()
    .reqntid 32
    { ret; }
    """
    entries = artifact.parse_ptx_entries(ptx)
    assert sorted(entries) == ["k", "noparams"]
    assert entries["k"]["params"] == [8, 4, 56, 2]
    assert entries["k"]["maxntid"] == (128, 1, 1)
    assert entries["noparams"]["params"] == []
    assert entries["noparams"]["reqntid"] == (32, 1, 1)


def test_submodules_load_lazily():
    import blockbuster
    assert blockbuster.references.REFERENCES["attention"]
    assert blockbuster.check.default_rtol(["f32", "bf16"]) == 2e-2
