#!/usr/bin/python3
"""Call A's ThomasVBatch map: joins the Flat and Full-Interleaved runs into map_device.json
and draws it with scripts/solver_map.py (figures into docs/figures, tables.md here, Auto's
ThomasVBatch tables into include/hinesbatch/solvers/impl/auto_thomas_vbatch_table.hpp); then
compares the storages (cp, ncp, packed) at each point: vstorages.md.

    docs/results/2026-12-04-session35/callA/combine.py   (from the repository root)
"""
import collections, json, lzma, math, os, subprocess, sys, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
work = tempfile.mkdtemp()
with tarfile.open(os.path.join(here, "map.tar")) as t:
    t.extractall(work)
docs = [json.load(lzma.open(os.path.join(work, "map", f"map_device_{l}.json.xz"), "rt"))
        for l in ("Flat", "FullInterleaved")]
merged = docs[0]
merged["benchmarks"] = docs[0]["benchmarks"] + docs[1]["benchmarks"]
folder = os.path.join(work, "joined")
os.makedirs(folder)
with open(os.path.join(folder, "map_device.json"), "w") as f:
    json.dump(merged, f)
impl = os.path.join(root, "include/hinesbatch/solvers/impl")
subprocess.run([sys.executable, os.path.join(root, "scripts/solver_map.py"), folder,
                "--figures", os.path.join(work, "figures"),
                "--tables", os.path.join(here, "tables.md"), "--emit-auto-tables", impl], check=True)
# The table names this call's archive, not the temporary folder it was read from.
header = os.path.join(impl, "auto_thomas_vbatch_table.hpp")
text = open(header).read().replace(os.path.normpath(folder),
                                   "docs/results/2026-12-04-session35/callA/map.tar")
open(header, "w").write(text)
for name in os.listdir(os.path.join(work, "figures")):
    if name.startswith("solver_map_thomasv_"):
        base = name[:-len(".png")] + "_h200.png"
        os.replace(os.path.join(work, "figures", name), os.path.join(root, "docs/figures", base))
        print("figure", base)

# Storages side by side: Auto in each storage, and the fastest schedule of any storage.
copy = float(merged["context"].get("copy_bandwidth_GBps", 0)) * 1e9
pts = collections.defaultdict(dict)   # (layout, spread, m, total) -> {(storage, schedule): rate}
for b in merged["benchmarks"]:
    if b.get("error_occurred"):
        continue
    parts = b["name"].split("/")
    layout, sched, kind = parts[2], parts[3], parts[4]
    m = int(parts[5].split(":")[1]); t = int(parts[6].split(":")[1])
    storage, spread = kind.split("-")
    pts[(layout, spread, m, t)][(storage, sched)] = (b["nodes_per_s"], b.get("label", ""))
out = ["Auto in each storage, G real rows/s (fraction of the copy floor at 40 B a real row), "
       "and the fastest (storage, schedule) of the point. Copy floor "
       f"{copy * 1e-9:.0f} GB/s.", ""]
for layout in ("Flat", "FullInterleaved"):
    for spread in ("half", "full"):
        out += [f"### {layout}, sizes {spread}", "",
                "| m_max | total | cp Auto | ncp Auto | packed Auto | fastest | Auto of the best storage / fastest |",
                "|---|---|---|---|---|---|---|"]
        for (l, s, m, t), cell in sorted(pts.items()):
            if (l, s) != (layout, spread):
                continue
            def auto(st):
                v = cell.get((st, "Auto"))
                return f"{v[0] * 1e-9:.1f} ({40 * v[0] / copy:.2f}) {v[1]}" if v else "-"
            best = max(cell.items(), key=lambda kv: kv[1][0])
            autos = [cell[(st, "Auto")][0] for st in ("cp", "ncp", "packed") if (st, "Auto") in cell]
            out.append(f"| {m} | 2^{t} | {auto('cp')} | {auto('ncp')} | {auto('packed')} | "
                       f"{best[1][0] * 1e-9:.1f} {best[0][0]} {best[0][1]} | "
                       f"{max(autos) / best[1][0]:.2f} |")
        out.append("")
with open(os.path.join(here, "vstorages.md"), "w") as f:
    f.write("\n".join(out) + "\n")
print("wrote", os.path.join(here, "vstorages.md"))
