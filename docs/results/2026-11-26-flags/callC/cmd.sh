#!/usr/bin/env bash
# Call C, merged main (the header move and backend traits, several templates and spike
# sources, generated mechanisms on chip): the whole CUDA unit suite (2 shards), the NMODL unit
# tests, compute-sanitizer (racecheck on team and warp launches of the mixed network and of the
# L5PC catalogue on chip; memcheck on the sources example), the networks against calls A-B's
# rasters, the two-templates-and-sources example on the device against the host.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; A=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/c; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
R=examples/sim/real_mixed.json
few="--set network.cells=12 --set network.kick.cells=2 --set tstop=0.25 --set network.synapses_per_cell=4"
for shape in team_per_cell:256 warp_per_cell:32; do
  timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim $R --quiet --set 'output={}' $few \
    --set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:} > $L/racecheck_mixed_${shape%%:*}.txt 2>&1
  stamp "racecheck mixed $shape rc=$? $(grep -E 'hinesbatch-sim: error' $L/racecheck_mixed_${shape%%:*}.txt) $(tail -1 $L/racecheck_mixed_${shape%%:*}.txt)"
done
for shape in team_per_cell:128 warp_per_cell:32; do
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim-l5pc $A/l5pc_cnic_net.json --quiet \
    --set network.cells=4 --set network.synapses_per_cell=2 --set tstop=0.25 \
    --set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:} > $L/racecheck_l5pc_${shape%%:*}.txt 2>&1
  stamp "racecheck l5pc $shape rc=$? $(grep -E 'hinesbatch-sim-l5pc: error' $L/racecheck_l5pc_${shape%%:*}.txt) $(tail -1 $L/racecheck_l5pc_${shape%%:*}.txt)"
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim examples/sim/two_templates.json --quiet --set 'output={}' \
  --set tstop=5 > $L/memcheck_sources.txt 2>&1
stamp "memcheck two_templates rc=$? $(tail -1 $L/memcheck_sources.txt)"
run() { local bin=$1 name=$2; shift 2
  timeout 120 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
E=examples/sim
for be in device host; do
  run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be
done
run hinesbatch-sim p3syn100000 $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run hinesbatch-sim ring10000 $E/ring.json --set 'output={}' --set network.cells=10000
run hinesbatch-sim mixed20000 $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50
run hinesbatch-sim large2000 $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50
run hinesbatch-sim-l5pc l5pc_net2000_on_chip $A/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20
(cd $OUT && tar czf c_sanitizers.tgz c)
timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 200 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
(cd $OUT && rm -f $L/*.spk && tar czf c.tgz c && rm -rf c)
