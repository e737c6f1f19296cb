#!/usr/bin/python3
"""Summarises call A's Nsight Compute runs (ncu.tar beside this file): one line per profiled
kernel launch with its launch shape, time, DRAM bytes and throughput, occupancy and what
limits it, cache hit rates, and (call B) the warps' main stall reasons, cycles per issued instruction.

    docs/results/2026-12-06-session47/callA/ncu_table.py [name-regex]
"""
import csv, io, lzma, os, re, sys, tarfile

here = os.path.dirname(os.path.abspath(__file__))
want = re.compile(sys.argv[1] if len(sys.argv) > 1 else ".")
M = {"Duration": "t", "DRAM Throughput": "dram%", "Registers Per Thread": "regs",
     "Dynamic Shared Memory Per Block": "dsmem", "Theoretical Occupancy": "theo%",
     "Achieved Occupancy": "ach%", "Block Limit Registers": "lim_reg",
     "Block Limit Shared Mem": "lim_smem", "Block Limit Warps": "lim_warps",
     "L1/TEX Hit Rate": "l1hit%", "L2 Hit Rate": "l2hit%",
     "Warp Cycles Per Issued Instruction": "cyc/issue",
     "Avg. Active Threads Per Warp": "thr/warp", "dram__bytes_read.sum": "rd",
     "dram__bytes_write.sum": "wr", "Waves Per SM": "waves"}
def short(k):
    m = re.search(r"hinesbatch::impl::(\w+)", k)
    return m[1] if m else k[:40]
with tarfile.open(os.path.join(here, "ncu.tar")) as t:
    for mem in sorted(t.getmembers(), key=lambda m: m.name):
        if not mem.name.endswith(".csv.xz") or not want.search(mem.name):
            continue
        text = lzma.open(t.extractfile(mem), "rt").read()
        rows = [r for r in csv.reader(io.StringIO(text[text.index('"ID"'):]))][1:]
        launches = {}
        for r in rows:
            if len(r) < 15:
                continue
            d = launches.setdefault(int(r[0]), {"k": short(r[4]), "grid": r[8], "block": r[7]})
            if r[12] in M:
                d[M[r[12]]] = r[14].replace(",", "")
            st = re.match(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active", r[12])
            if st:
                d.setdefault("stalls", {})[st[1]] = float(r[14].replace(",", ""))
        print(f"# {mem.name[4:-7]}")
        for i, d in sorted(launches.items()):
            b = (float(d.get("rd", 0)) + float(d.get("wr", 0))) / 1e6
            print(f"  {i:3d} {d['k'][:28]:28s} grid {d['grid']:>14s} block {d['block']:>12s} "
                  f"t {float(d.get('t', 0)) / 1e6:7.3f} ms  DRAM {b:8.1f} MB {d.get('dram%', '?'):>6s}%  "
                  f"regs {d.get('regs', '?'):>3s} smem {d.get('dsmem', '?'):>6s} occ {d.get('theo%', '?'):>6s}/{d.get('ach%', '?'):>6s} "
                  f"lim r/s/w {d.get('lim_reg', '?')}/{d.get('lim_smem', '?')}/{d.get('lim_warps', '?')} "
                  f"L1 {d.get('l1hit%', '?')} L2 {d.get('l2hit%', '?')} cyc/issue {d.get('cyc/issue', '?')} "
                  f"thr/warp {d.get('thr/warp', '?')}")
            if "stalls" in d:  # warps' cycles stalled per issued instruction, by reason
                top = sorted(d["stalls"].items(), key=lambda x: -x[1])[:4]
                print("        stalled per issue: " + ", ".join(f"{k} {v:.2f}" for k, v in top))
