#!/usr/bin/python3
"""Call B's Full-Interleaved ThomasVBatch map not computing the padding (every schedule and
Auto, the in-step one-thread-per-system solve measured as PerSystem): remakes that one of
Auto's ThomasVBatch tables, kThomasVAutoFullInterleavedNcp in
src/solvers/auto_thomas_vbatch_table.hpp, by scripts/solver_map.py's own rule (auto_table:
the best geometric mean over the spreads at each point, Auto's choice kept within 5%); the
other tables stay as made from session 35's map. A point the map lacks keeps its entry.
Prints each point whose choice moved.

    docs/results/2026-12-06-session46/callB/table.py   (from the repository root)
"""
import importlib.util, os, re, sys, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
spec = importlib.util.spec_from_file_location("solver_map", os.path.join(root, "scripts/solver_map.py"))
sm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sm)
work = tempfile.mkdtemp()
with tarfile.open(os.path.join(here, "map.tar")) as t:
    t.extractall(work)
_, points = sm.load_map(os.path.join(work, "map", "map_device_fi_ncp.json"))
new = {(size, total): sched for size, _, total, sched in
       sm.auto_table(points)[("ThomasV", "FullInterleavedNcp")]}
path = os.path.join(root, "src/solvers/auto_thomas_vbatch_table.hpp")
text = open(path).read()
name = "kThomasVAutoFullInterleavedNcp"
start = text.index(name)
end = text.index("};", start)
entry = re.compile(r"\{(\d+), (\d+), ThomasSchedule::(\w+)\},")
lines, moved = [], []
for m in entry.finditer(text[start:end]):
    size, total, old = int(m[1]), int(m[2]), m[3]
    sched = new.get((size, total), old)
    if sched != old:
        moved.append(f"m_max {size} 2^{total}: {old} -> {sched}")
    lines.append(f"    {{{size}, {total}, ThomasSchedule::{sched}}},")
head = text[:start] + name + "[] = {\n"
text = head + "\n".join(lines) + "\n" + text[end:]
source = "docs/results/2026-12-06-session46/callB/map.tar"
if source not in text:
    text = text.replace(" Regenerate it from a new map;",
                        f" {name} from {source}, the in-step solve measured (callB/table.py)."
                        " Regenerate it from a new map;", 1)
open(path, "w").write(text)
print("\n".join(moved) or "no point moved")
print(f"{len(moved)} of {len(lines)} points moved", file=sys.stderr)
