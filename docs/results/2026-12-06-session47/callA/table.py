#!/usr/bin/python3
"""Remakes Auto's table for Full-Interleaved ThomasVBatch not computing the padding
(kThomasVAutoFullInterleavedNcp in src/solvers/auto_thomas_vbatch_table.hpp) after the on-chip
sweep in step: the points of m_max 4-129 from this call's two runs in step (map_after_a/b:
PerSystem, PerSystemOnChip, WarpPerSystem and Auto, the faster run of each), the points of
m_max 256-100,000 from session 46's call B (every schedule; the on-chip sweep does not run
there). At m_max <= 129 call B's fastest schedule was always one of these three. The rule is
scripts/solver_map.py's auto_table (as session 46's callB/table.py); other tables unchanged.
Prints each point whose choice moved.

    docs/results/2026-12-06-session47/callA/table.py   (from the repository root)
"""
import importlib.util, json, lzma, os, re, sys, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
spec = importlib.util.spec_from_file_location("solver_map", os.path.join(root, "scripts/solver_map.py"))
sm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sm)
size_of = lambda name: int(re.search(r"/m:(\d+)/", name)[1])
with tarfile.open(os.path.join(here, "../../2026-12-06-session46/callB/map.tar")) as t:
    doc = json.load(lzma.open(t.extractfile("map/map_device_fi_ncp.json.xz"), "rt"))
kept = [b for b in doc["benchmarks"] if size_of(b["name"]) > 129]
fast = {}
with tarfile.open(os.path.join(here, "map.tar")) as t:
    for r in ("after_a", "after_b"):
        for b in json.load(lzma.open(t.extractfile(f"map/map_{r}.json.xz"), "rt"))["benchmarks"]:
            if b.get("error_occurred") or size_of(b["name"]) > 129:
                continue
            if b["name"] not in fast or b["nodes_per_s"] > fast[b["name"]]["nodes_per_s"]:
                fast[b["name"]] = b
doc["benchmarks"] = kept + list(fast.values())
work = tempfile.mkdtemp()
merged = os.path.join(work, "map_device_fi_ncp.json")
json.dump(doc, open(merged, "w"))
_, points = sm.load_map(merged)
new = {(size, total): sched for size, _, total, sched in
       sm.auto_table(points)[("ThomasV", "FullInterleavedNcp")]}
path = os.path.join(root, "src/solvers/auto_thomas_vbatch_table.hpp")
text = open(path).read()
name = "kThomasVAutoFullInterleavedNcp"
start = text.index(name + "[]")
end = text.index("};", start)
entry = re.compile(r"\{(\d+), (\d+), ThomasSchedule::(\w+)\},")
lines, moved = [], []
for m in entry.finditer(text[start:end]):
    size, total, old = int(m[1]), int(m[2]), m[3]
    sched = new.get((size, total), old)
    if sched != old:
        moved.append(f"m_max {size} 2^{total}: {old} -> {sched}")
    lines.append(f"    {{{size}, {total}, ThomasSchedule::{sched}}},")
text = text[:start] + name + "[] = {\n" + "\n".join(lines) + "\n" + text[end:]
old_source = "docs/results/2026-12-06-session46/callB/map.tar, the in-step solve measured (callB/table.py)."
new_source = ("docs/results/2026-12-06-session46/callB/map.tar and, at m_max <= 129,\n// "
              "docs/results/2026-12-06-session47/callA/map.tar (the on-chip sweep in step; callA/table.py).")
text = text.replace(old_source, new_source, 1)
open(path, "w").write(text)
print("\n".join(moved) or "no point moved")
print(f"{len(moved)} of {len(lines)} points moved", file=sys.stderr)
