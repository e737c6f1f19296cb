#!/usr/bin/env bash
# Call F, final main of this session (generated mechanisms: outputs not stored, ion sums only
# where read, uniforms, one BREAKPOINT for linear currents, leaks folded; records of mechanism
# variables; generated mechanisms on the host's lanes schedule): the whole CUDA unit suite
# (2 shards), the NMODL unit tests, compute-sanitizer (racecheck on team and warp launches of
# generated networks with records of m_hh, and of the L5PC catalogue; memcheck), the networks
# against calls D2-D4's rasters, the host backend (16 threads) with generated mechanisms on lanes.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; A=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin && tar xzf $c/binF.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/f; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt; lscpu > $OUT/lscpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
R=examples/sim/real_mixed.json; E=examples/sim
gen_all='[{"name": "hh", "region": "all", "parameters": {"gnabar": 0.12}}]'
gen_p3='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}}, {"name": "pas", "region": "dend", "parameters": {"g": 0.0001, "e": -65}}]'
rec='[{"gid": 0, "location": {"section": 0, "x": 0.5}}, {"gid": 0, "location": {"section": 0, "x": 0.5}, "variable": "m_hh"}, {"gid": 1, "location": {"section": 0, "x": 0.5}, "variable": "h_hh"}]'
timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 220 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
few="--set network.cells=12 --set network.kick.cells=2 --set tstop=0.25 --set network.synapses_per_cell=4"
for shape in team_per_cell:256 warp_per_cell:32; do
  timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim $R --quiet --set 'output={}' $few \
    --set "cell.mechanisms=$gen_all" --set "record=$rec" \
    --set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:} > $L/racecheck_mixedgen_${shape%%:*}.txt 2>&1
  stamp "racecheck mixed generated + records $shape rc=$? $(grep -E 'hinesbatch-sim: error' $L/racecheck_mixedgen_${shape%%:*}.txt) $(tail -1 $L/racecheck_mixedgen_${shape%%:*}.txt)"
done
for shape in team_per_cell:128 warp_per_cell:32; do
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim-l5pc $A/l5pc_cnic_net.json --quiet \
    --set network.cells=4 --set network.synapses_per_cell=2 --set tstop=0.25 \
    --set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:} > $L/racecheck_l5pc_${shape%%:*}.txt 2>&1
  stamp "racecheck l5pc $shape rc=$? $(grep -E 'hinesbatch-sim-l5pc: error' $L/racecheck_l5pc_${shape%%:*}.txt) $(tail -1 $L/racecheck_l5pc_${shape%%:*}.txt)"
done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $E/p3_synaptic.json --quiet --set 'output={}' \
  --set network.cells=200 --set network.kick.cells=20 --set tstop=5 --set "cell.mechanisms=$gen_p3" --set "record=$rec" > $L/memcheck_p3gen.txt 2>&1
stamp "memcheck p3 generated + records rc=$? $(tail -1 $L/memcheck_p3gen.txt)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $R --quiet --set 'output={}' $few \
  --set "cell.mechanisms=$gen_all" --set "record=$rec" --on-chip off > $L/memcheck_mixedgen_cells.txt 2>&1
stamp "memcheck mixed generated + records, cells schedule rc=$? $(tail -1 $L/memcheck_mixedgen_cells.txt)"
run() { local bin=$1 name=$2; shift 2
  timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
for be in device host; do
  run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be
done
run hinesbatch-sim p3syn100000 $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run hinesbatch-sim p3syn100000_generated $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set "cell.mechanisms=$gen_p3"
run hinesbatch-sim ring10000 $E/ring.json --set 'output={}' --set network.cells=10000
run hinesbatch-sim ringtest65536 $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]'
run hinesbatch-sim ringtest65536_generated $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]' --set "cell.mechanisms=$gen_all"
run hinesbatch-sim mixed20000 $R --set 'output={}' $(cells 20000) --set tstop=50
run hinesbatch-sim mixed20000_generated $R --set 'output={}' $(cells 20000) --set tstop=50 --set "cell.mechanisms=$gen_all"
run hinesbatch-sim large2000 $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50
run hinesbatch-sim-l5pc l5pc_net20000_on_chip $A/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20
for t in 16 1; do
  OMP_NUM_THREADS=$t run hinesbatch-sim host_p3_1000_t${t} $E/p3_synaptic.json --set 'output={}' --set network.cells=1000 --set network.kick.cells=100 --set tstop=50 --backend host
  OMP_NUM_THREADS=$t run hinesbatch-sim host_p3_1000_generated_t${t} $E/p3_synaptic.json --set 'output={}' --set network.cells=1000 --set network.kick.cells=100 --set tstop=50 --backend host --set "cell.mechanisms=$gen_p3"
  [ $t = 1 ] && continue
  OMP_NUM_THREADS=$t run hinesbatch-sim host_mixed1000_t${t} $R --set 'output={}' $(cells 1000) --set tstop=5 --backend host
  OMP_NUM_THREADS=$t run hinesbatch-sim host_mixed1000_generated_t${t} $R --set 'output={}' $(cells 1000) --set tstop=5 --backend host --set "cell.mechanisms=$gen_all"
done
(cd $OUT && tar czf f_sanitizers.tgz f)  # (with the spike files; not kept: f.tgz has the rest)
(cd $OUT && rm -f $L/*.spk && tar czf f.tgz f && rm -rf f)
