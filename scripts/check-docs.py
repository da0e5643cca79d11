#!/usr/bin/env python3
"""Checks that the docs name only what exists (test/Docs/*.test).

  check-docs.py references --root SRC --bin BIN
      Every file path that README.md and docs/ name exists in the
      repository, every `--flag` given to a Blockbuster tool (bb-opt,
      bb-compile, bb-run, bb-difftest, mlir-opt with the plugin, the
      scripts) is one that tool takes, every pass named with options
      (`block-fuse{trace}`, `--block-fuse=trace`) is registered with those
      options, and every link to a heading (`File.md#anchor`) finds it.
      Prints one line per stale name and exits 1 if there is any.
  check-docs.py rules --root SRC
      Derives the rule table of docs/FusionRules.md from the code (the
      catalogue in BlockFuse.cpp, the populate functions, the PDLL modules,
      the tests) and compares it with the table in the doc.
  check-docs.py gpu-stages --root SRC --dump FILE
      Compares the order of the passes in docs/GPUPipeline.md's stage table
      with the pipeline `bb-opt --blockbuster-gpu-pipeline
      --dump-pass-pipeline` printed into FILE.
  check-docs.py passes --root SRC
      Every pass of the Passes.td files has a row in docs/README.md's table
      of stages or in docs/GPUPipeline.md's stage table.
  check-docs.py block FILE HEADING
      Prints the first fenced code block under the heading HEADING of FILE
      (for tests that compare a block of a doc with a tool's output).

Names of other projects (upstream MLIR's files and flags, CMake's, pip's,
files in third-party repositories) are not checked: a line that names
another repository, a command of another tool, and the names listed below
(ALLOWED_FILES, ALLOWED_FLAGS, UPSTREAM_FILES, QUOTED_IN_DOC,
QUOTED_PASSES) are skipped, each for the reason given there.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

# Top-level directories of this repository: a path that starts with one is
# ours and must exist.
OUR_DIRS = ("include", "lib", "tools", "scripts", "test", "examples",
            "python", "cmake", "docs")

# File names of the docs that are not files of the repository, and why (a
# bare name that is not a source file, `in.mlir`, is a command's input or
# output and is not checked).
ALLOWED_FILES = {
    "manifest.json": "the artifact's manifest, written by bb-compile -o DIR",
    "my-opt.cpp": "a downstream project's file (docs/Embedding.md)",
    "rules.pdll": "a user's rule file (docs/Embedding.md)",
    "anchors.md": "written by scripts/bench-anchors.py under $OUT",
    "real-inputs.md": "written by scripts/check-real-inputs.py --markdown",
}

# Tools of other projects: their flags are theirs, not checked.
OTHER_TOOLS = {
    "cmake", "ninja", "pip", "pip3", "python", "python3", "pytest", "lit",
    "git", "apt-get", "apt", "sudo", "compute-sanitizer", "ptxas",
    "cuobjdump", "nvdisasm", "nvcc", "clang", "clang++", "gcc", "g++",
    "mlir-pdll", "mlir-tblgen", "mlir-translate", "llc", "opt", "FileCheck",
    "ccache", "nsys", "ncu", "nvidia-smi", "torch-mlir-opt", "iree-compile",
    "iree-opt", "stablehlo-opt", "buddy-opt", "triton-opt", "curl", "wget",
    "diff", "grep", "sed", "awk", "ls", "cp", "rm", "mkdir", "tar", "env",
    "time", "perf", "valgrind", "gdb", "docker", "uv", "llvm-lit",
    "bash", "sh", "cat", "head", "tail", "sort", "find", "xargs", "make",
    "duplicates", "issues", "hyperfine", "bb-fuzz", "torchrun",
    "mlir-runner", "llvm-config", "clang++-22", "nice",
}

# Flags of a tool of another project written without the tool in front of
# them (in prose), and why.
ALLOWED_FLAGS = {
    "--help": "every tool",
    "--version": "every tool",
    "--load-dialect-plugin": "mlir-opt's",
    "--load-pass-plugin": "mlir-opt's",
    "--pass-pipeline": "mlir-opt's",
    "--mlir-print-ir-after-all": "mlir-opt's",
    "--mlir-pass-statistics": "mlir-opt's",
    "-mlir-pass-statistics": "mlir-opt's",
    "--prefix": "cmake --install's",
    "--target": "cmake --build's",
    "--build": "cmake's",
    "--install": "cmake's",
    "--check-prefix": "FileCheck's",
    "--check-prefixes": "FileCheck's",
    "--filter": "lit's",
    "--tool": "compute-sanitizer's",
    "--leak-check": "compute-sanitizer's",
    "--gpu-architecture": "nvcc's",
    "--use_fast_math": "nvcc's",
    "--break-system-packages": "pip's",
    "--no-build-isolation": "pip's",
    "--racecheck-report": "compute-sanitizer's",
    "--test-gpu-subgroup-reduce-lowering": "a test pass of upstream's mlir-opt",
}

# The prefixes of Blockbuster's pass names.
OUR_PASS_PREFIXES = ("block-", "gpu-", "blockbuster-", "convert-linalg-to-",
                     "convert-block-to-", "hoist-")

# Passes of the probe plugin that design note 05 quotes (section 7.1): the
# experiments' names, not Blockbuster's passes.
QUOTED_PASSES = {
    "docs/design/05-gpu-lowering-notes.md": {
        "gpu-launch-manifest", "gpu-workgroup-alloc-to-launch",
        "gpu-extern-dynamic-smem", "gpu-kernel-arg-attrs"},
}

# Lines that name another project: the paths on them are that project's
# (a table of third-party inputs, the projects design note 04 follows).
OTHER_REPO_LINE = re.compile(
    r"[\w.-]+/[\w.-]+:\s*`|\b(IREE|CIRCT|Triton|torch-mlir|buddy-mlir|"
    r"tpp-mlir|StableHLO|CUTLASS|FlashAttention|flash-attention)\b")
# Files of upstream LLVM/MLIR that the docs name without their directory.
UPSTREAM_FILES = {
    "NVGPUTransformOps.cpp", "CudaRuntimeWrappers.cpp", "Ch5.py",
    "VectorToGPU.cpp", "NVGPUToNVVM.cpp",
}
# Files a doc quotes whole (their text is in the doc, not in the tree).
QUOTED_IN_DOC = {
    "docs/design/05-gpu-lowering-notes.md": {
        "lower_to_ptx.sh", "extract_ptx.py", "launch.cpp",
        "GpuProbePlugin.cpp"},
}
# Paths of an installation (cmake --install), not of the source tree.
INSTALLED = ("lib/cmake/blockbuster/", "BlockbusterConfigVersion.cmake",
             "BlockbusterTargets.cmake", "BlockbusterConfig.cmake")

# Path prefixes of other projects.
OTHER_PREFIXES = ("mlir/", "llvm/", "clang/", "compiler/", "include/cutlass",
                  "cutlass/", "csrc/", "stablehlo/", "epilogue/",
                  "include/toy", "include/circt", "include/triton",
                  "python/tools/", "benchmarks/", "standalone-plugin/")

# A bare file name (no directory) is checked only when it is a source file:
# a bare `.mlir`, `.json` or `.so` is a command's input or output.
SOURCE_SUFFIXES = (".cpp", ".h", ".td", ".pdll", ".py", ".sh", ".md",
                   ".cmake", ".toml")

PATH_TOKEN = re.compile(
    r"(?<![\w.$%/<{-])((?:\.\.?/)?(?:[\w.+-]+/)*[\w+-][\w.+-]*\."
    r"(?:cpp|h|td|pdll|py|sh|mlir|test|md|json|txt|cmake|toml|inc|c)"
    r"(?:\.in|\.inc)?)(?![\w/]|\.\w)")
DIR_TOKEN = re.compile(
    r"(?<![\w.$%/<{-])((?:" + "|".join(OUR_DIRS) + r")/(?:[\w.+-]+/)*)(?![\w.])")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FLAG = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)(?:=('[^']*'|\"[^\"]*\"|\S*))?")
PASS_WITH_OPTIONS = re.compile(r"(?<![\w.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\{([^}]*)\}")


def git_files(root):
    """The repository's files: tracked and untracked but not ignored (the
    check runs in a work tree too); outside git, every file but build
    trees and virtual environments."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root,
                             capture_output=True, text=True, check=True)
        if os.path.realpath(top.stdout.strip()) != os.path.realpath(root):
            raise OSError("not the root of a git work tree")
        files = []
        for extra in ([], ["--others", "--exclude-standard"]):
            out = subprocess.run(["git", "ls-files"] + extra, cwd=root,
                                 capture_output=True, text=True, check=True)
            files += [f for f in out.stdout.split("\n") if f]
        return files
    except (OSError, subprocess.CalledProcessError):
        files = []
        for base, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(("build", ".git", ".venv"))]
            files += [os.path.relpath(os.path.join(base, n), root) for n in names]
        return files


def doc_files(root):
    docs = ["README.md"]
    for base, _, names in os.walk(os.path.join(root, "docs")):
        for name in sorted(names):
            if name.endswith(".md"):
                docs.append(os.path.relpath(os.path.join(base, name), root))
    return sorted(docs)


def slug(heading):
    """GitHub's anchor of a heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


ANCHORS = {}


def anchors(path):
    if path in ANCHORS:
        return ANCHORS[path]
    result = ANCHORS[path] = set()
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                result.add(slug(line.lstrip("#")))
    return result


def logical_lines(path):
    """(line number, text, in code block) with shell continuations joined."""
    in_code = False
    pending, start = "", 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code and line.rstrip().endswith("\\"):
                if not pending:
                    start = number
                pending += line.rstrip()[:-1] + " "
                continue
            if pending:
                yield start, pending + line, in_code
                pending = ""
            else:
                yield number, line, in_code


# --- tool flags -----------------------------------------------------------

def help_flags(text):
    """Flags and pass options in a tool's --help output: returns (flags,
    passes) where passes maps each pass and pass pipeline of an MLIR tool
    (the `Passes:` and `Pass Pipelines:` sections) to its options."""
    if text.startswith("usage:"):  # argparse (bb-difftest)
        return set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text)), {}
    flags, passes = set(), {}
    current, pass_indent, in_passes = None, None, False
    for line in text.split("\n"):
        header = re.match(r"^(\s*)(Passes|Pass Pipelines|[A-Z][\w ]*):$",
                          line.rstrip())
        if header:
            in_passes = header.group(2) in ("Passes", "Pass Pipelines")
            pass_indent, current = None, None
            continue
        m = re.match(r"^(\s*)(--?[\w][\w.-]*)", line)
        if not m:
            continue
        indent, name = len(m.group(1)), m.group(2).split("=")[0]
        flags.add(name)
        if not in_passes:
            continue
        if pass_indent is None or indent <= pass_indent:
            pass_indent = indent
            current = name.lstrip("-")
            passes[current] = set()
        else:
            passes[current].add(name.lstrip("-"))
    return flags, passes


def script_flags(path):
    flags = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for m in re.finditer(r"add_argument\(([^)]*)", text):
        flags.update(re.findall(r"[\"'](--?[\w-]+)[\"']", m.group(1)))
    # Shell scripts: the flags their option parsing matches.
    if path.endswith(".sh"):
        flags.update(re.findall(r"^\s*(--[\w-]+)\)", text, re.M))
        flags.update(re.findall(r"\|(--[\w-]+)\)", text))
    return flags


def tool_flags(root, bindir):
    tools = {}
    passes = {}
    for tool in ("bb-opt", "bb-compile", "bb-run", "bb-difftest"):
        exe = os.path.join(bindir, tool)
        if not os.path.exists(exe):
            raise SystemExit(f"check-docs.py: no {exe} (build it first)")
        # bb-difftest is a Python script (argparse): --help, not
        # LLVM's --help-hidden.
        option = "--help" if tool == "bb-difftest" else "--help-hidden"
        text = subprocess.run([exe, option], capture_output=True,
                              text=True).stdout
        flags, found = help_flags(text)
        tools[tool] = flags
        if tool == "bb-opt":
            passes = found
    # The stock mlir-opt with the plugin takes bb-opt's flags.
    tools["mlir-opt"] = tools["bb-opt"]
    for base in ("scripts", os.path.join("python", "blockbuster"),
                 os.path.join("tools", "bb-difftest")):
        for base_dir, _, names in os.walk(os.path.join(root, base)):
            for name in names:
                if name.endswith((".py", ".sh")):
                    flags = script_flags(os.path.join(base_dir, name))
                    tools.setdefault(name, set()).update(flags)
    # The downstream example's tool: its pipeline's name, plus bb-opt's.
    downstream = set(tools["bb-opt"])
    for base_dir, _, names in os.walk(os.path.join(root, "examples", "downstream")):
        for name in names:
            if name.endswith(".cpp"):
                with open(os.path.join(base_dir, name)) as f:
                    text = f.read()
                for m in re.finditer(r"PassPipelineRegistration<[^>]*>\(\s*\"([\w-]+)\"", text):
                    downstream.add("--" + m.group(1))
    tools["downstream-opt"] = downstream
    # python -m blockbuster runs python/blockbuster/__main__.py.
    tools["blockbuster"] = tools.get("__main__.py", set())
    return tools, passes


# --- the check ------------------------------------------------------------

class Checker:
    def __init__(self, root, bindir):
        self.root = root
        self.files = git_files(root)
        self.basenames = {os.path.basename(f) for f in self.files}
        self.dirs = set()
        for f in self.files:
            parts = f.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:i]) + "/")
        # Every tail of every path (`Rules/Common.pdll`, `Transforms/Rules/`).
        self.tails = set()
        for path in self.files + sorted(self.dirs):
            parts = path.rstrip("/").split("/")
            for i in range(len(parts)):
                tail = "/".join(parts[i:])
                self.tails.add(tail + "/" if path.endswith("/") else tail)
        self.tools, self.passes = tool_flags(root, bindir)
        self.all_flags = set().union(*self.tools.values())
        self.all_options = set().union(*self.passes.values())
        # Other kebab-case names the code defines: patterns' debug names,
        # passes built only inside a pipeline (getArgument), CMake install
        # components.
        self.code_names = set()
        for f in self.files:
            if f.endswith((".cpp", ".h", "CMakeLists.txt", ".cmake")):
                with open(os.path.join(root, f), errors="replace") as text:
                    self.code_names.update(re.findall(
                        r"(?:setDebugName\(|return |COMPONENT )\"?([a-z][\w-]*)",
                        text.read()))
        self.problems = []

    def report(self, doc, number, what):
        self.problems.append(f"{doc}:{number}: {what}")

    def path_exists(self, doc, token):
        token = token.rstrip(".,;:")
        here = os.path.dirname(doc)
        for candidate in (token, os.path.normpath(os.path.join(here, token)),
                          os.path.join("docs", token)):
            if os.path.exists(os.path.join(self.root, candidate)):
                return True
        stripped = token.lstrip("./")
        if "/" not in stripped.rstrip("/") and not stripped.endswith(
                SOURCE_SUFFIXES):
            return True  # inputs and outputs of a command (`in.mlir`)
        if "/" not in stripped.rstrip("/"):
            return (stripped in self.basenames or stripped + "/" in self.dirs
                    or stripped in ALLOWED_FILES)
        # A path below one of ours (`Rules/Common.pdll`,
        # `Blockbuster/Pipelines/GPUCompile.h`): the tail of a file or
        # directory of the repository.
        return stripped in self.tails

    def check_paths(self, doc, number, line, previous):
        if "://" in line:
            line = re.sub(r"\w+://\S+", "", line)
        # The project may be named on the lines before (a wrapped sentence).
        other_repo = OTHER_REPO_LINE.search(previous + " " + line)
        tokens = [m.group(1) for m in PATH_TOKEN.finditer(line)]
        tokens += [m.group(1) for m in DIR_TOKEN.finditer(line)]
        for token in tokens:
            if token.startswith(("build/", "/")) or re.search(
                    r"(^|/)[A-Z][A-Z_0-9]*(/|$)|[$%<>*{]", token):
                continue  # build outputs, absolute paths, placeholders
            if token.endswith(".inc"):
                continue  # generated by mlir-tblgen or mlir-pdll
            if token.startswith(OTHER_PREFIXES) or token.startswith(INSTALLED):
                continue
            name = os.path.basename(token.rstrip("/"))
            if (name in ALLOWED_FILES or name in UPSTREAM_FILES
                    or name in QUOTED_IN_DOC.get(doc, ())
                    or re.match(r"^[A-Z][A-Z_0-9]*\.", name)):
                continue  # generated, upstream, quoted, or a placeholder
            if self.path_exists(doc, token):
                continue
            if other_repo:
                continue
            self.report(doc, number, f"no file `{token}`")

    def check_links(self, doc, number, line):
        for m in LINK.finditer(line):
            target = m.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            path, _, anchor = target.partition("#")
            here = os.path.dirname(doc)
            full = os.path.normpath(os.path.join(here, path)) if path else doc
            if not os.path.exists(os.path.join(self.root, full)):
                self.report(doc, number, f"link to a missing file `{target}`")
                continue
            if anchor and full.endswith(".md") and anchor not in anchors(
                    os.path.join(self.root, full)):
                self.report(doc, number, f"link to a missing heading `{target}`")

    def check_pass_options(self, doc, number, name, options):
        if name in QUOTED_PASSES.get(doc, ()):
            return
        if name not in self.passes:
            self.report(doc, number, f"no pass `{name}`")
            return
        for option in re.split(r"\s+", options.strip().strip("'\"")):
            key = option.split("=")[0].strip()
            if not key or key in ("...", "FILE") or not re.match(r"^[a-z][\w-]*$", key):
                continue
            if key not in self.passes[name]:
                self.report(doc, number, f"pass `{name}` has no option `{key}`")

    def check_flags(self, doc, number, line, in_code, before):
        # Flags of another project's tool, or passes of another plugin.
        if not in_code and OTHER_REPO_LINE.search(before + " " + line):
            return
        plugin = re.search(r"--load-pass-plugin=(\S+)", line)
        if plugin and "BlockbusterPlugin" not in plugin.group(1):
            return
        # Spans to look at: a code line whole, else the backticked spans.
        spans = [line] if in_code else re.findall(r"`([^`]+)`", line)
        for span in spans:
            for m in PASS_WITH_OPTIONS.finditer(span):
                name = m.group(1)
                if name in self.passes or name.startswith(
                        ("block-", "gpu-", "blockbuster-", "convert-linalg-to-block",
                         "convert-block-to-linalg")):
                    self.check_pass_options(doc, number, name, m.group(2))
            self.check_command_flags(doc, number, span)
            # A pass named alone (`gpu-row-kernels`): a name with the prefix
            # of our passes must be a pass, a pass option or a flag.
            name = span.strip()
            if (not in_code and re.match(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$", name)
                    and name.startswith(OUR_PASS_PREFIXES)
                    and name not in self.passes
                    and name not in QUOTED_PASSES.get(doc, ())
                    and name not in self.all_options
                    and name not in self.code_names
                    and "--" + name not in self.all_flags):
                self.report(doc, number, f"no pass `{name}`")

    def check_command_flags(self, doc, number, span):
        try:
            words = shlex.split(span.replace("|", " | ").replace(";", " ; "),
                                comments=True)
        except ValueError:  # an unclosed quote in prose
            words = span.split()
        tool = None
        for i, word in enumerate(words):
            if word in ("|", ";", "&&", "||"):
                tool = None
                continue
            base = os.path.basename(word.strip("`()"))
            if base in self.tools and not base.startswith("__"):
                tool = base
                continue
            if base in OTHER_TOOLS and (tool is None or i == 0 or words[i - 1] in (
                    "|", ";", "&&", "sudo", "nice", "env")):
                tool = "other"
                continue
            if word == "-m" and i + 1 < len(words):
                tool = "blockbuster" if words[i + 1] == "blockbuster" else "other"
                continue
            if tool == "other":
                continue
            # A quoted value that holds flags (`--variant old="--block-sizes
            # ..."`) passes them on to another of our tools.
            if " " in word and not word.startswith("--"):
                for inner in re.findall(r"(?<![\w-])(--[a-zA-Z][\w-]*)", word):
                    if inner not in self.all_flags and inner not in ALLOWED_FLAGS:
                        self.report(doc, number, f"any tool has no flag `{inner}`")
                continue
            m = FLAG.match(word.strip("`("))
            if not m or not m.group(1).startswith("--"):
                continue
            flag = m.group(1)
            value = word.strip("`(").partition("=")[2]
            if flag in ALLOWED_FLAGS:
                continue
            known = self.tools[tool] if tool else self.all_flags
            if tool is None and flag.lstrip("-") in self.all_options:
                continue  # a pass option named as a flag in prose
            if flag not in known:
                where = f"`{tool}`" if tool else "any tool"
                self.report(doc, number, f"{where} has no flag `{flag}`")
                continue
            name = flag.lstrip("-")
            if tool in ("bb-opt", "mlir-opt", "downstream-opt", None) \
                    and name in self.passes and value:
                self.check_pass_options(doc, number, name, value)

    def check_section_references(self):
        """`docs/X.md, "Heading"` in the docs and the code: the page has a
        heading that contains the quoted words (or, for a field of a
        format, names it in backticks)."""
        # Anchored at each ".md": a pattern that starts with the path would
        # backtrack over every run of word characters of a large file.
        page_before = re.compile(r"([\w/.-]+)$")
        section_after = re.compile(r"\)?,? (?:section |sections )?\"([^\"]+)\"")
        headings = {}
        for f in self.files:
            if not f.endswith((".md", ".td", ".cpp", ".h", ".py", ".sh",
                               ".test", ".mlir", ".pdll")):
                continue
            with open(os.path.join(self.root, f), errors="replace") as handle:
                text = handle.read()
            for md in re.finditer(r"\.md\b", text):
                after = section_after.match(text, md.end())
                before = page_before.search(text, max(0, md.start() - 200), md.start())
                if not after or not before:
                    continue
                page, section = before.group(1) + ".md", after.group(1)
                section = re.sub(r"\s*\n\s*(///|//|#)?\s*", " ", section)
                candidates = [os.path.normpath(os.path.join(os.path.dirname(f), page)),
                              page, os.path.join("docs", page)]
                path = next((c for c in candidates
                             if os.path.exists(os.path.join(self.root, c))), None)
                if path is None:
                    continue  # a missing page is check_paths' to report
                if path not in headings:
                    with open(os.path.join(self.root, path)) as handle:
                        body = handle.read()
                    headings[path] = (
                        [h.lower() for h in re.findall(r"^#+ (.*)$", body, re.M)],
                        body)
                titles, body = headings[path]
                if any(section.lower() in t for t in titles):
                    continue
                if "`" + section + "`" in body or "." + section + "`" in body:
                    continue
                line = text.count("\n", 0, md.start()) + 1
                self.report(f, line, f"{page} has no section \"{section}\"")

    def run(self):
        self.check_section_references()
        for doc in doc_files(self.root):
            before = ["", "", ""]
            for number, line, in_code in logical_lines(os.path.join(self.root, doc)):
                self.check_paths(doc, number, line, " ".join(before))
                self.check_links(doc, number, line)
                self.check_flags(doc, number, line, in_code, " ".join(before))
                before = before[1:] + [line]
        for problem in self.problems:
            print(problem)
        return 1 if self.problems else 0


# --- the rule table -------------------------------------------------------

# The rule table's sources are found by name, not by path, so that moving
# a directory does not break the check (the table's paths are checked by
# `references`).
class Sources:
    def __init__(self, root):
        self.root = root
        self.files = git_files(root)
        self.fuse = self.locate("BlockFuse.cpp")
        self.vocabulary = self.locate("FusionVocabulary.cpp")
        self.rules = os.path.dirname(self.locate("Common.pdll"))
        self.user = self.locate("UserRules.cpp")
        # The directory of the rules' tests: the one with rule 1's.
        tests = {os.path.dirname(f) for f in self.files
                 if f.startswith("test/") and os.path.basename(f).startswith("rule1-")}
        if len(tests) != 1:
            raise SystemExit(f"check-docs.py: rule 1's tests in {sorted(tests)}")
        self.tests = tests.pop()
        # The headers of the driver, the vocabulary and the rules.
        dirs = {os.path.dirname(self.fuse), self.rules,
                os.path.dirname(self.locate("FusionVocabulary.h")),
                os.path.dirname(self.locate("FusionRules.h"))}
        self.headers = ""
        for f in self.files:
            if f.endswith(".h") and os.path.dirname(f) in dirs:
                self.headers += self.read(f)

    def locate(self, name):
        found = [f for f in self.files if os.path.basename(f) == name
                 and f.startswith(("lib/", "include/"))]
        if len(found) != 1:
            raise SystemExit(f"check-docs.py: {len(found)} files named {name}")
        return found[0]

    def read(self, path):
        with open(os.path.join(self.root, path), encoding="utf-8") as f:
            return f.read()

    def rule_file(self, path):
        """`path` as the table writes it: from the directory that holds
        the rules' directory (`Rules/MapIntoReduce.cpp`)."""
        return os.path.relpath(path, os.path.dirname(self.rules))


def vocabulary_table(src):
    """PDL name -> the C++ functions of its row in docs/FusionRules.md's
    vocabulary table; checks that each exists where the table says."""
    doc = os.path.join(src.root, "docs/FusionRules.md")
    common = src.read(os.path.join(src.rules, "Common.pdll"))
    declared = set(re.findall(r"^(?:Constraint|Rewrite) (\w+)", common, re.M))
    registered = set(re.findall(r"\"([A-Z]\w+)\"", src.read(src.vocabulary)))
    table = {}
    for row in table_rows(doc, "| precondition | transformation |"):
        functions = re.findall(r"`(\w+)\(", row[0] + row[1])
        for function in functions:
            if not re.search(r"\b%s\(" % function, src.headers):
                raise SystemExit(f"docs/FusionRules.md: vocabulary: `{function}` "
                                 "is declared in no header of the fusion "
                                 "driver or the rules")
        for name in re.findall(r"`(\w+)`", row[2]):
            if name not in declared or name not in registered:
                raise SystemExit(f"docs/FusionRules.md: vocabulary: `{name}` is "
                                 "not declared in Common.pdll and registered "
                                 "in FusionVocabulary.cpp")
            table.setdefault(name, []).extend(functions)
    return table


def vocabulary_calls(src, module):
    """The names of Common.pdll that module.pdll calls."""
    common = src.read(os.path.join(src.rules, "Common.pdll"))
    declared = re.findall(r"^(?:Constraint|Rewrite) (\w+)", common, re.M)
    text = src.read(os.path.join(src.rules, module + ".pdll"))
    return [name for name in declared if re.search(r"\b%s\(" % name, text)]


def derive_rules(root):
    """The rows of the rule table, from the code."""
    src = Sources(root)
    fuse = src.read(src.fuse)
    catalogue = re.findall(r"\{(\d+), \"([^\"]+)\", (populate\w+)\}", fuse)
    tests = sorted(os.path.basename(f) for f in src.files
                   if os.path.dirname(f) == src.tests)
    rows = []
    user = re.search(r"kUserRule = (\d+);", fuse)
    if user:
        rows.append((user.group(1), "user rules", f"`{src.rule_file(src.user)}`",
                     "", "the `rules=FILE` file", "",
                     ", ".join(f"`{t}`" for t in tests if t.startswith("user-rules"))))
    sources = {f: src.read(f) for f in src.files
               if os.path.dirname(f) == src.rules and f.endswith(".cpp")}
    vocabulary = vocabulary_table(src)
    for number, name, populate in catalogue:
        defining = [f for f, text in sources.items()
                    if re.search(r"void blockbuster::block::%s\(" % populate, text)]
        if len(defining) != 1:
            raise SystemExit(f"rule {number}: {populate} is defined in "
                             f"{len(defining)} files of {src.rules}")
        text = sources[defining[0]]
        # The PDLL modules: the .h.inc of a .pdll of the rules that the
        # file includes.
        modules = [m for m in re.findall(r"#include \"(?:[\w/]*/)?(\w+)\.h\.inc\"", text)
                   if os.path.join(src.rules, m + ".pdll") in src.files]
        patterns = []
        for module in modules:
            patterns += re.findall(r"^Pattern (\w+)",
                                   src.read(os.path.join(src.rules, module + ".pdll")), re.M)
        # The files that define the vocabulary's functions the modules
        # call: rule 6's reduce form runs rule 3's cloneProducerIntoReduce.
        files = [defining[0]]
        for module in modules:
            for called in vocabulary_calls(src, module):
                for function in vocabulary.get(called, ()):
                    for other, other_text in sources.items():
                        if other not in files and re.search(
                                r"\bblockbuster::block::%s\(" % function,
                                other_text):
                            files.append(other)
        cxx = re.findall(r"setDebugName\(\"([\w-]+)\"\)", text)
        rows.append((number, name,
                     ", ".join(f"`{src.rule_file(f)}`" for f in files),
                     f"`{populate}`",
                     ", ".join(f"`{m}.pdll`" for m in modules),
                     ", ".join(patterns + cxx),
                     ", ".join(f"`{t}`" for t in tests
                               if t.startswith(f"rule{number}-"))))
    return rows


def table_rows(path, header_start):
    """The rows of the first table whose header starts with header_start."""
    rows, in_table = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(header_start):
                in_table = True
                continue
            if in_table:
                if not line.startswith("|"):
                    break
                if set(line.strip()) <= set("|-: "):
                    continue
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                rows.append(cells)
    return rows


def check_rules(root):
    doc = os.path.join(root, "docs/FusionRules.md")
    header = "| # | name | file"
    documented = table_rows(doc, header)
    derived = derive_rules(root)
    problems = []
    if not documented:
        problems.append(f"docs/FusionRules.md: no table starting `{header}`")
    by_number = {row[0]: row for row in documented}
    for row in derived:
        have = by_number.pop(row[0], None)
        if have is None:
            problems.append(f"docs/FusionRules.md: no row for rule {row[0]}: "
                            "| " + " | ".join(row) + " |")
            continue
        # Columns from the code must match; the last (the doc anchor) must
        # name a heading of the doc.
        if have[:len(row)] != list(row):
            problems.append(f"docs/FusionRules.md: rule {row[0]}:\n"
                            "  doc:  | " + " | ".join(have[:len(row)]) + " |\n"
                            "  code: | " + " | ".join(row) + " |")
        targets = anchors(doc)
        for anchor in re.findall(r"\]\(#([^)]+)\)", " ".join(have[len(row):])):
            if anchor not in targets:
                problems.append(f"docs/FusionRules.md: rule {row[0]}: no heading #{anchor}")
        if not re.search(r"\]\(#", " ".join(have[len(row):])):
            problems.append(f"docs/FusionRules.md: rule {row[0]}: no doc anchor")
    for number in by_number:
        problems.append(f"docs/FusionRules.md: rule {number} is not in the code")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


# --- the GPU stages -------------------------------------------------------

# Passes the stage table does not list: they tidy between the stages.
UNLISTED_STAGES = {"canonicalize", "cse"}


def dumped_passes(text):
    """The pass names, in order, of a --dump-pass-pipeline output."""
    text = text[text.find("builtin.module("):]
    names = []
    # Drop option lists, then take every name followed by , or ) or (.
    depth, flat = 0, []
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            flat.append(ch)
    for name in re.findall(r"([\w.-]+)\s*(?=[,()]|$)", "".join(flat)):
        if name in ("builtin.module", "func.func", "gpu.module", "any"):
            continue
        names.append(name)
    return names


def check_gpu_stages(root, dump):
    with open(dump) as f:
        code = [n for n in dumped_passes(f.read()) if n not in UNLISTED_STAGES]
    doc = os.path.join(root, "docs/GPUPipeline.md")
    rows = table_rows(doc, "| step | pass |")
    listed = []
    for row in rows:
        # The passes of the row; parentheses hold conditions and notes.
        cell = re.sub(r"\([^)]*\)", "", row[1])
        listed += [re.sub(r"\{.*", "", n)
                   for n in re.findall(r"`([a-z][a-z0-9-]*(?:\{[^}]*\})?)`", cell)]
    if listed == code:
        return 0
    import difflib
    print("docs/GPUPipeline.md: the stage table's passes differ from "
          "blockbuster-gpu-pipeline's (--- doc, +++ code):")
    for line in difflib.unified_diff(listed, code, lineterm="", n=1):
        print(line)
    return 1


# --- every pass in a table ------------------------------------------------

def check_pass_tables(root):
    """Every pass a Passes.td defines is in the table of stages of
    docs/README.md or in the stage table of docs/GPUPipeline.md."""
    defined = []
    for base, _, names in os.walk(os.path.join(root, "include")):
        for name in sorted(names):
            if name.endswith(".td"):
                with open(os.path.join(base, name)) as f:
                    defined += [(os.path.relpath(os.path.join(base, name), root), p)
                                for p in re.findall(r"Pass<\"([\w-]+)\"", f.read())]
    listed = set()
    for doc, header in (("docs/README.md", "| stage | flag |"),
                        ("docs/GPUPipeline.md", "| step | pass |")):
        for row in table_rows(os.path.join(root, doc), header):
            listed.update(re.findall(r"`-*([a-z][a-z0-9-]*)", row[1]))
    missing = [(td, p) for td, p in defined if p not in listed]
    for td, p in missing:
        print(f"{td}: pass `{p}` is in neither docs/README.md's table of "
              "stages nor docs/GPUPipeline.md's stage table")
    return 1 if missing else 0


# --- a block of a doc -----------------------------------------------------

def print_block(path, heading):
    found, in_code = False, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not found:
                found = line.startswith("#") and line.lstrip("#").strip() == heading
                continue
            if line.startswith("```"):
                if in_code:
                    return 0
                in_code = True
                continue
            if in_code:
                sys.stdout.write(line)
    print(f"{path}: no code block under the heading `{heading}`", file=sys.stderr)
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    refs = sub.add_parser("references")
    refs.add_argument("--root", required=True)
    refs.add_argument("--bin", required=True)
    rules = sub.add_parser("rules")
    rules.add_argument("--root", required=True)
    rules.add_argument("--print", action="store_true",
                       help="print the derived rows instead of comparing")
    stages = sub.add_parser("gpu-stages")
    stages.add_argument("--root", required=True)
    stages.add_argument("--dump", required=True)
    tables = sub.add_parser("passes")
    tables.add_argument("--root", required=True)
    block = sub.add_parser("block")
    block.add_argument("file")
    block.add_argument("heading")
    args = parser.parse_args()
    if args.command == "references":
        return Checker(args.root, args.bin).run()
    if args.command == "rules":
        if args.print:
            for row in derive_rules(args.root):
                print("| " + " | ".join(row) + " |")
            return 0
        return check_rules(args.root)
    if args.command == "passes":
        return check_pass_tables(args.root)
    if args.command == "gpu-stages":
        return check_gpu_stages(args.root, args.dump)
    return print_block(args.file, args.heading)


if __name__ == "__main__":
    sys.exit(main())
