"""Prints each launch and output of the artifact manifests given."""
import json
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        manifest = json.load(f)
    for launch in manifest["launches"]:
        params = " ".join(p.get("buffer", "scalar") for p in launch["params"])
        print("%s: launch grid %s params %s"
              % (manifest["entry"], launch["grid"], params))
    for buffer in manifest["buffers"]:
        if buffer["kind"] == "output":
            print("%s: output %s %s"
                  % (manifest["entry"], buffer["name"], buffer["shape"]))
