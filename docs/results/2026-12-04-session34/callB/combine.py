#!/usr/bin/python3
"""map/map_device.json.xz of this folder: call A's combination (its combine.py) with the
Full-Interleaved tridiagonal points of this call instead (one H200, map.tar: every schedule,
Auto under the table made from call A's map). The figures and tables.md of the solver map:
    python3 combine.py
    scripts/solver_map.py docs/results/2026-12-04-session34/callB/map --figures docs/figures \\
        --tables docs/results/2026-12-04-session34/callB/tables.md
(then delete map/ again: map.tar holds this call's points)."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
subprocess.run([sys.executable, os.path.join(here, "..", "callA", "combine.py"), here], check=True)
