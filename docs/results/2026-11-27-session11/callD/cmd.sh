#!/usr/bin/env bash
# Call D (binD.txz: call A's code plus the config's IClamps through the catalogue's IClamp in
# every step schedule): the whole CUDA unit suite in two shards; the examples' rasters; a
# clamped cell (scripts/validation/cases/hh_96ML.json, hh soma, pas dendrites, IClamp) on
# chip, with the cells schedule and on the host backend of the same binary, against the
# hand-written mechanisms; memcheck of clamped cells on chip and with the cells schedule.
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binD.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 230 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
xz -9 $L/suite_*.txt
SIM=$c/bin/hinesbatch-sim
run() { local name=$1; shift
  timeout 40 $SIM "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m['schedule'], m['team_lanes'], m['tile_cells'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run ringtest65536 examples/sim/ringtest.json --set network.cells=65536 --set record=[]
# The clamped cell: on chip, cells schedule, host backend (catalogue), and the hand-written.
CASE=scripts/validation/cases/hh_96ML.json
for v in "onchip:" "cells:--on-chip off" "host:--backend host" "builtin:--mechanisms builtin"; do
  name=${v%%:*}; args=${v#*:}
  timeout 60 $SIM $CASE $args --quiet --set 'output={}' --traces $L/clamp_$name.csv --spikes $L/clamp_$name.spk \
    --metrics $L/clamp_$name.json > $L/clamp_$name.log 2>&1
  stamp "clamp $name rc=$? $(wc -l < $L/clamp_$name.spk) spikes $(python3 -c "import json; m=json.load(open('$L/clamp_$name.json')); print(m['schedule'])" 2>/dev/null)"
done
python3 - $L <<'PY' | tee -a $S
import sys, csv
L = sys.argv[1]
def rows(n): return [list(map(float, r)) for r in list(csv.reader(open("%s/clamp_%s.csv" % (L, n))))[1:]]
def spikes(n): return open("%s/clamp_%s.spk" % (L, n)).read()
ref = rows("onchip")
for n in ("cells", "host", "builtin"):
    o = rows(n)
    dv = max(abs(a - b) for ra, rb in zip(ref, o) for a, b in zip(ra[1:], rb[1:]))
    print("clamp on chip vs %s: rows %d/%d, spikes equal %s, max |dv| %.3g mV" % (n, len(ref), len(o), spikes(n) == spikes("onchip"), dv))
PY
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $SIM $CASE --set tstop=10 --quiet --set 'output={}' > $L/memcheck_clamp_onchip.txt 2>&1
stamp "memcheck clamp on chip rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_clamp_onchip.txt | tail -1)"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $SIM $CASE --set tstop=10 --on-chip off --quiet --set 'output={}' > $L/memcheck_clamp_cells.txt 2>&1
stamp "memcheck clamp cells schedule rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_clamp_cells.txt | tail -1)"
rm -f $L/*.spk
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
