#!/usr/bin/env bash
# Installs what Blockbuster needs to build and test on Debian 12, from Debian's
# archive only (LLVM/MLIR 22.1 are Debian packages; nothing is built from
# source). Idempotent: does nothing when every package is already installed.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  python3-pytest python3-numpy
  # test/Install/pip.test: a virtual environment, the package built offline.
  python3-venv python3-setuptools python3-wheel
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
