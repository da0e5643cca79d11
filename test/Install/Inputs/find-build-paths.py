"""find-build-paths.py PREFIX DIR...: prints every file and symbolic link
under PREFIX whose bytes (or link target) name one of the DIRs once PREFIX
itself is deleted from them; exits 1 if there is one (test/Install)."""

import os
import sys


def main():
    prefix, dirs = sys.argv[1], sys.argv[2:]
    needles = [os.path.realpath(d).encode() for d in dirs]
    # The prefix may lie inside a DIR (lit's %t does), so it goes first.
    prefixes = {os.path.abspath(prefix).encode(),
                os.path.realpath(prefix).encode()}
    found, count = [], 0
    for root, _, files in os.walk(prefix):
        for name in files:
            path = os.path.join(root, name)
            count += 1
            if os.path.islink(path):
                data = os.readlink(path).encode()
            else:
                with open(path, "rb") as f:
                    data = f.read()
            for p in sorted(prefixes, key=len, reverse=True):
                data = data.replace(p, b"")
            hits = [n.decode() for n in needles if n in data]
            if hits:
                found.append("%s: names %s"
                             % (os.path.relpath(path, prefix), ", ".join(hits)))
    for line in found:
        print(line)
    if not found:
        print("no source or build path in %d installed files" % count)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
