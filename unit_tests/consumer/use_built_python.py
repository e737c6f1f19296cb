"""A script of a user of hinesbatch-build-sim --python: with the built package first on the
path, the catalogue holds the user's mechanism, and a network of it runs with the raster the
simulator built with the same .mod file gives.

  python3 use_built_python.py PACKAGE_DIR CONFIG REFERENCE_SPIKES MECHANISM

REFERENCE_SPIKES: that simulator's spike file for CONFIG with tstop 30 ("gid time" lines).
Exit 0 when all holds."""
import os
import sys

package_dir, config, reference, mechanism = sys.argv[1:5]
sys.path.insert(0, package_dir)
import hinesbatch as hb  # noqa: E402

assert os.path.dirname(hb.__file__) == os.path.join(package_dir, "hinesbatch"), hb.__file__
cat = hb.catalogue()
assert cat["name"] == "mine" and mechanism in cat["mechanisms"] and "hh" in cat["mechanisms"], cat
r = hb.run_config(config, overrides=["tstop=30", "output={}"], backend="host")
ours = [(int(g), round(float(t), 6)) for g, t in zip(r.spike_gids, r.spike_times)]
with open(reference) as f:
    ref = [(int(a), round(float(b), 6)) for a, b in (line.split() for line in f if line.strip())]
assert len(ours) >= 6, ours  # each config's inputs alone give more
assert sorted(ours) == sorted(ref), (len(ours), len(ref), ours[:5], ref[:5])
print("built package:", cat["name"], ", ".join(cat["mechanisms"]), "-", os.path.basename(config),
      len(ours), "spikes as the simulator's")
