#!/usr/bin/env bash
# README command (b): set up, build, and run every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" check-blockbuster
