"""Shared fixtures: the package from python/, the repository and build
directories (BLOCKBUSTER_BUILD overrides <repo>/build)."""

import os
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "python"))

ARTIFACTS = os.path.join(REPO, "test", "Runtime", "CUDA", "Inputs", "artifacts")
BAD_ARTIFACTS = os.path.join(REPO, "test", "Runtime", "CUDA", "Inputs", "bad-artifacts")


def build_dir():
    return os.environ.get("BLOCKBUSTER_BUILD", os.path.join(REPO, "build"))


@pytest.fixture
def repo():
    return REPO


@pytest.fixture
def bb_run():
    path = os.path.join(build_dir(), "bin", "bb-run")
    if not os.access(path, os.X_OK):
        pytest.skip("bb-run is not built (%s)" % path)
    return path
