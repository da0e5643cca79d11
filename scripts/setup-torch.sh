#!/usr/bin/env bash
# Installs Blockbuster's optional PyTorch dependencies into a project-local
# virtual environment (default ./.venv-torch, git-ignored), from PyPI:
#
#   torch 2.15.0, torch-mlir 20261001 (the exporter: torch_mlir.fx), ml_dtypes
#   (bf16 weights in exports), iree-base-compiler 3.13.0 (IREE's kernel count
#   in scripts/torch-corpus-status.py), numpy and pytest.
#
# The core (the C++ tools and python/blockbuster) needs none of them: they are
# used by scripts/export-torch-corpus.py, blockbuster.torch (docs/Python.md)
# and the torch tests of python/tests, which are skipped where torch is
# absent. About 7 GB (torch with its CUDA libraries); needs python3 >= 3.10
# with the venv module (Debian 12: apt-get install python3-venv).
#
#   scripts/setup-torch.sh [VENV_DIR]
#   VENV_DIR/bin/python scripts/export-torch-corpus.py
#
# Idempotent: pip leaves already installed versions alone.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$repo/.venv-torch}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  echo "setup-torch: creating $venv"
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install \
  "torch==2.15.0" "torch-mlir==20261001" "iree-base-compiler==3.13.0" \
  ml_dtypes numpy pytest
"$venv/bin/python" - <<'EOF'
from importlib.metadata import version
import torch, torch_mlir.fx  # noqa: F401 (the imports are the check)
for package in ("torch", "torch-mlir", "iree-base-compiler", "ml_dtypes"):
    print(f"setup-torch: {package} {version(package)}")
EOF
