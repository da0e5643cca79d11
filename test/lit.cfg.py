# -*- Python -*-
# lit configuration of the Blockbuster regression tests.

import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "BLOCKBUSTER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.blockbuster_obj_root, "test")
# Inputs/ holds files that other tests read; they are not tests themselves.
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "FakeCuda"]

# The longer names first: lit substitutes in order, and %cmake would also
# match the start of %cmake_generator.
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake_make_program", config.cmake_make_program))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx_compiler_launcher",
                             config.cxx_compiler_launcher))
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))
config.substitutions.append(("%mlir_include_dir", config.mlir_include_dir))
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%src_root", config.blockbuster_src_root))
config.substitutions.append(("%obj_root", config.blockbuster_obj_root))
config.substitutions.append(("%examples", os.path.join(config.blockbuster_src_root, "examples")))
# The stand-in libcuda of test/Runtime/CUDA/FakeCuda, for the runtime tests.
config.substitutions.append(
    ("%fake_libcuda", os.path.join(config.blockbuster_libs_dir,
                                   "libBlockbusterFakeCuda" + config.llvm_shlib_ext)))
config.substitutions.append(
    ("%blockbuster_plugin",
     os.path.join(config.blockbuster_libs_dir,
                  "BlockbusterPlugin" + config.llvm_shlib_ext)))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# LLVM's test utilities (FileCheck, not, count, split-file) live beside
# mlir-opt in the LLVM installation, not on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.blockbuster_tools_dir, append_path=True)

tool_dirs = [config.blockbuster_tools_dir, config.llvm_tools_dir]
tools = [
    "bb-opt",
    "bb-run",
    "not",
    "split-file",
    # The stock mlir-opt of the LLVM installation: the plugin test loads
    # Blockbuster into it.
    ToolSubst("mlir-opt", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The runtime of vector.print for the programs that lli runs on the CPU
# (test/Codegen/GPU/expand-erf.test).
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.llvm_tools_dir, "..", "lib",
                  "libmlir_c_runner_utils" + config.llvm_shlib_ext)))

# ptxas assembles generated PTX for sm_90 where a CUDA toolkit is installed.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found (no CUDA toolkit): tests that assemble PTX "
                    "for sm_90 (REQUIRES: ptxas) are skipped")

# cuobjdump disassembles cubins to SASS (tests that check HGMMA, UTMALDG):
# from PATH or $CUOBJDUMP (pip's nvidia-cuda-cuobjdump has one).
cuobjdump = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump")
if cuobjdump and os.path.exists(cuobjdump):
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))

# Third-party Linalg programs (docs/RealInputs.md, with their sources and
# licences in test/Inputs/real/SOURCES.txt) are %real_inputs. %python (the
# Python running lit) comes from llvm_config.use_default_substitutions().
config.substitutions.append(
    ("%real_inputs", os.path.join(config.blockbuster_src_root, "test",
                                  "Inputs", "real")))

# python/tests (test/Python/pytest.test) needs pytest and NumPy for the Python
# running lit (Debian: python3-pytest, python3-numpy; scripts/install-deps.sh).
import importlib.util
if all(importlib.util.find_spec(m) for m in ("pytest", "numpy")):
    config.available_features.add("pytest")
else:
    lit_config.note("pytest or numpy not importable by %s: the Python tests "
                    "(REQUIRES: pytest) are skipped" % sys.executable)

# test/Install/pip.test makes a virtual environment and builds the Python
# package in it without the network: venv with ensurepip (Debian:
# python3-venv), setuptools and wheel (python3-setuptools, python3-wheel;
# scripts/install-deps.sh).
if all(importlib.util.find_spec(m) for m in ("ensurepip", "setuptools", "wheel")):
    config.available_features.add("python-venv")
else:
    lit_config.note("venv's ensurepip, setuptools or wheel not importable by "
                    "%s: the pip install test (REQUIRES: python-venv) is "
                    "skipped" % sys.executable)

# Debug information names the build directory in every object file, so the
# check that the installed tree names no build path (test/Install) needs a
# build without it: Release or MinSizeRel, no -g.
if (config.cmake_build_type in ("Release", "MinSizeRel")
        and "-g" not in config.cmake_cxx_flags.split()):
    config.available_features.add("no-debug-info")
else:
    lit_config.note("build type %r with flags %r: the check that installed "
                    "files name no build path (REQUIRES: no-debug-info) is "
                    "skipped" % (config.cmake_build_type, config.cmake_cxx_flags))

# The optional torch dependencies (scripts/setup-torch.sh): the Python of
# $BLOCKBUSTER_TORCH_PYTHON, else of ./.venv-torch in the checkout, when it
# has torch, torch-mlir, ml_dtypes and pytest. Tests that need them (REQUIRES:
# torch) run it as %torch_python. Only the packages' presence is checked here
# (importing torch takes seconds).
import subprocess
torch_python = os.environ.get("BLOCKBUSTER_TORCH_PYTHON") or os.path.join(
    config.blockbuster_src_root, ".venv-torch", "bin", "python")
torch_check = ("import importlib.util, sys; sys.exit(any(importlib.util."
               "find_spec(m) is None for m in ('torch', 'torch_mlir', "
               "'ml_dtypes', 'pytest')))")
if os.access(torch_python, os.X_OK) and subprocess.run(
        [torch_python, "-c", torch_check]).returncode == 0:
    config.available_features.add("torch")
    config.substitutions.append(("%torch_python", torch_python))
else:
    lit_config.note("no Python with torch, torch-mlir, ml_dtypes and pytest "
                    "(%s; scripts/setup-torch.sh, or set "
                    "BLOCKBUSTER_TORCH_PYTHON): the PyTorch front door tests "
                    "(REQUIRES: torch) are skipped" % torch_python)
