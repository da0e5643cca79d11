#!/usr/bin/env python3
"""A stand-in compute-sanitizer for test/Runtime/CUDA/gpu-sanitize.test: runs the
command after the options and passes its output through, adding the report
lines the real tool prints for an artifact whose path contains
$FAKE_SANITIZER_BAD (after its BEGIN line), then the tool's summary."""
import os
import subprocess
import sys

args = sys.argv[1:]
tool = args[args.index("--tool") + 1]
while args[0].startswith("--") or not os.path.isabs(args[0]):
    args = args[1:]  # options and their values; the command is absolute
bad = os.environ.get("FAKE_SANITIZER_BAD")
print("========= COMPUTE-SANITIZER", flush=True)
proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
errors = 0
for line in proc.stdout:
    sys.stdout.write(line)
    if bad and line.startswith("BEGIN ") and bad in line:
        errors += 1
        sys.stdout.write("========= Invalid __shared__ write of size 1 bytes (%s)\n" % tool)
        sys.stdout.write("=========     at add+0x70\n")
    sys.stdout.flush()
proc.wait()
print("========= ERROR SUMMARY: %d errors" % errors)
sys.exit(proc.returncode)
