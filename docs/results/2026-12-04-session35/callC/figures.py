#!/usr/bin/python3
"""Call C's Full-Interleaved ThomasVBatch map (Auto from its tables) drawn by
scripts/solver_map.py: docs/figures/solver_map_thomasv_device_fullinterleaved_h200_tables.png,
and its summary tables.md here.

    docs/results/2026-12-04-session35/callC/figures.py   (from the repository root)
"""
import os, shutil, subprocess, sys, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
work = tempfile.mkdtemp()
with tarfile.open(os.path.join(here, "map.tar")) as t:
    t.extractall(work)
folder = os.path.join(work, "fi")
os.makedirs(folder)
shutil.copy(os.path.join(work, "map", "map_device_FullInterleaved.json.xz"),
            os.path.join(folder, "map_device.json.xz"))
subprocess.run([sys.executable, os.path.join(root, "scripts/solver_map.py"), folder,
                "--figures", os.path.join(work, "figures"),
                "--tables", os.path.join(here, "tables.md")], check=True)
os.replace(os.path.join(work, "figures", "solver_map_thomasv_device_fullinterleaved.png"),
           os.path.join(root, "docs/figures/solver_map_thomasv_device_fullinterleaved_h200_tables.png"))
