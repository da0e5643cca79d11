"""Setuptools hook of pyproject.toml: with BLOCKBUSTER_PREFIX set when the
package is built (an install prefix of Blockbuster, docs/Embedding.md), the
wheel carries that prefix's C API library inside the package
(blockbuster/lib/libBlockbusterCAPI.so, where capi.py looks) and is tagged
for this platform. Without it the package is pure Python and finds the
library at run time."""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

LIBRARY = "libBlockbusterCAPI.so"


def bundled_library():
    prefix = os.environ.get("BLOCKBUSTER_PREFIX")
    return os.path.join(prefix, "lib", LIBRARY) if prefix else None


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        library = bundled_library()
        if library is None:
            return
        if not os.path.isfile(library):
            raise SystemExit("error: BLOCKBUSTER_PREFIX is set but %s does not "
                             "exist: install Blockbuster there first "
                             "(cmake --install build --prefix PREFIX)" % library)
        # A platform wheel builds in its own build_lib, apart from a pure one.
        target = os.path.join(self.build_lib, "blockbuster", "lib")
        os.makedirs(target, exist_ok=True)
        shutil.copy(library, os.path.join(target, LIBRARY))


class PlatformDistribution(Distribution):
    """A wheel with a shared library inside is not pure Python."""

    def has_ext_modules(self):
        return bundled_library() is not None


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=PlatformDistribution)
