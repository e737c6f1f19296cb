#!/usr/bin/env bash
# Call A1, correctness of the new device code (generated mechanisms in the on-chip schedule,
# after the flags were reverted): the whole CUDA unit suite (2 shards), the NMODL unit tests,
# compute-sanitizer (memcheck, racecheck, synccheck) on team launches of the mixed network and
# on the L5PC catalogue on chip (racecheck: the lanes' waits between mechanisms that share a
# node), the L5PC cell on chip (device, every launch shape) against the cells schedule (host).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; B=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary1.txt; L=$OUT/a1; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
R=examples/sim/real_mixed.json
small="--set network.cells=48 --set network.kick.cells=4 --set tstop=2 --set network.synapses_per_cell=10"
team="--set run.on_chip_kind=\"team_per_cell\" --set run.on_chip_lanes=256"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $R --quiet --set 'output={}' $small $team \
  > $L/memcheck_team.txt 2>&1
stamp "memcheck mixed team 256 rc=$? $(tail -1 $L/memcheck_team.txt)"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim $R --quiet --set 'output={}' \
  --set network.cells=4 --set network.kick.cells=1 --set tstop=0.5 --set network.synapses_per_cell=4 $team > $L/racecheck_team.txt 2>&1
stamp "racecheck mixed team 256 rc=$? $(tail -1 $L/racecheck_team.txt)"
timeout 100 compute-sanitizer --tool synccheck --error-exitcode 9 $c/bin/hinesbatch-sim $R --quiet --set 'output={}' $small $team > $L/synccheck_team.txt 2>&1
stamp "synccheck mixed team 256 rc=$? $(tail -1 $L/synccheck_team.txt)"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim-l5pc $B/l5pc_cnic_net.json --quiet \
  --set network.cells=24 --set tstop=1 --metrics $L/memcheck_l5pc.json > $L/memcheck_l5pc.txt 2>&1
stamp "memcheck l5pc on chip rc=$? $(tail -1 $L/memcheck_l5pc.txt) $(python3 -c "import json; print(json.load(open('$L/memcheck_l5pc.json'))['schedule'])")"
for shape in warp_per_cell:32 team_per_cell:128; do
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim-l5pc $B/l5pc_cnic_net.json --quiet \
    --set network.cells=2 --set tstop=0.25 --set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:} > $L/racecheck_l5pc_${shape%%:*}.txt 2>&1
  stamp "racecheck l5pc $shape rc=$? $(tail -1 $L/racecheck_l5pc_${shape%%:*}.txt)"
done
run() { local bin=$1 name=$2; shift 2
  timeout 100 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run hinesbatch-sim-l5pc l5pc_single_host $B/l5pc_cnic_single.json --backend host --host-schedule cells --traces $L/l5pc_single_host.csv
for shape in auto warp_per_cell:32 team_per_cell:64 team_per_cell:256 team_in_memory:128; do
  extra=""; [ $shape != auto ] && extra="--set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:}"
  run hinesbatch-sim-l5pc l5pc_single_device_${shape/:/_} $B/l5pc_cnic_single.json --backend device $extra --traces $L/l5pc_single_device_${shape/:/_}.csv
done
python3 - $L <<'PY' | tee -a $S
import csv, glob, os, sys
L = sys.argv[1]
b = list(csv.reader(open(f"{L}/l5pc_single_host.csv")))
for f in sorted(glob.glob(f"{L}/l5pc_single_device_*.csv")):
    a = list(csv.reader(open(f)))
    worst = max(abs(float(x) - float(y)) for ra, rb in zip(a[1:], b[1:]) for x, y in zip(ra[1:], rb[1:]))
    print(f"l5pc single cell, {os.path.basename(f)[19:-4]} (on chip, device) against cells (host): {len(a) - 1} rows, max |dV| {worst:.3g} mV")
PY
(cd $OUT && tar czf a1_sanitizers.tgz a1)
timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 200 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "generated \]\|FAILED" $L/suite_*.txt | head -40 | tee -a $S
(cd $OUT && rm -f $L/*.spk && tar czf a1.tgz a1 && rm -rf a1)
