#!/usr/bin/python3
"""docs/figures/solver_map_hines_device_*_h200.png: call A's Hines map (every schedule) with
its Auto points replaced by call C's (Auto under the new table), drawn by the map script:
    python3 figures.py DIR     # writes DIR/map_device.json and the panels into DIR
(then rename the two Hines panels *_h200.png)."""
import io
import json
import lzma
import os
import subprocess
import sys
import tarfile

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
a = json.load(lzma.open(os.path.join(here, "../callA/map/map_device_hines.json.xz"), "rt"))
with tarfile.open(os.path.join(here, "map.tar")) as t:
    c = json.load(lzma.open(io.BytesIO(t.extractfile("map/map_device_hines_auto.json.xz").read()), "rt"))
auto = {b["name"]: b for b in c["benchmarks"]}
a["benchmarks"] = [auto.get(b["name"], b) if "/Auto/" in b["name"] else b for b in a["benchmarks"]]
json.dump(a, open(os.path.join(out, "map_device.json"), "w"))
subprocess.run([sys.executable, os.path.join(here, "../../../../scripts/solver_map.py"), out,
                "--figures", out], check=True)
