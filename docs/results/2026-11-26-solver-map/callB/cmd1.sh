#!/usr/bin/env bash
# Call B1, the final device code: the whole CUDA unit suite (2 shards), the NMODL unit tests,
# memcheck on a mixed real-cell network and on the L5PC catalogue's cells schedule, the
# simulator's networks against call M's rasters, the L5PC cell on the device against the host
# (same binary), and an L5PC network's throughput.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; B=$PWD/docs/results/2026-11-26-solver-map/callB
rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary1.txt; L=$OUT/b1; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 200 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
(cd $OUT && tar czf b1.tgz b1)
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim examples/sim/real_mixed.json --quiet --set 'output={}' \
  --set network.cells=48 --set network.kick.cells=4 --set tstop=2 --set network.synapses_per_cell=10 > $L/memcheck_mixed.txt 2>&1
stamp "memcheck mixed rc=$? $(tail -1 $L/memcheck_mixed.txt)"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim-l5pc $B/l5pc_cnic_net.json --quiet \
  --set network.cells=24 --set tstop=1 > $L/memcheck_l5pc.txt 2>&1
stamp "memcheck l5pc rc=$? $(tail -1 $L/memcheck_l5pc.txt)"
run() { local bin=$1 name=$2; shift 2
  timeout 100 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run hinesbatch-sim mixed20000 examples/sim/real_mixed.json --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run hinesbatch-sim large2000 examples/sim/real_large.json --set 'output={}' --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
run hinesbatch-sim p3syn100000 examples/sim/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run hinesbatch-sim ring10000 examples/sim/ring.json --set 'output={}' --set network.cells=10000
for be in device host; do
  run hinesbatch-sim-l5pc l5pc_single_$be $B/l5pc_cnic_single.json --backend $be --traces $L/l5pc_single_$be.csv
done
python3 - $L <<'PY' | tee -a $S
import csv, sys
L = sys.argv[1]
a = list(csv.reader(open(f"{L}/l5pc_single_device.csv"))); b = list(csv.reader(open(f"{L}/l5pc_single_host.csv")))
worst = max(abs(float(x) - float(y)) for ra, rb in zip(a[1:], b[1:]) for x, y in zip(ra[1:], rb[1:]))
print(f"l5pc single cell, device against host: {len(a) - 1} rows, max |dV| {worst:.3g} mV")
PY
run hinesbatch-sim-l5pc l5pc_net2000 $B/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20
(cd $OUT && rm -f $L/*.spk && tar czf b1.tgz b1 && rm -rf b1)
