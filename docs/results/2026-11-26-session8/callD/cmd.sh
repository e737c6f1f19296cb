#!/usr/bin/env bash
# Call D (binD.txz, the final build: call C's code with the review's simplifications: nmodl::StateReadsV beside HasLanes,
# the synapse constants counted by count_in_store): the NMODL tests, the whole CUDA
# unit suite (2 shards), racecheck and memcheck on chip, and the examples' rasters (md5) with
# the default (catalogue) mechanisms and the hand-written ones.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; B=docs/results/2026-11-26-session8/callB
rm -rf $c/bin && tar xJf $c/binD.txz -C $c
for t in mpi libomp; do [ -d $c/$t ] || tar xJf $c/$t.txz -C $c; done
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim
run() { local bin=$1 name=$2; shift 2
  local lp=$LD_LIBRARY_PATH; [ $bin = hinesbatch-sim-omp ] && lp=$c/libomp:$lp
  LD_LIBRARY_PATH=$lp timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
san() { local tool=$1 name=$2; shift 2
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 "$@" --quiet --set 'output={}' > $L/${tool}_$name.txt 2>&1
  stamp "$tool $name rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/${tool}_$name.txt | tail -1) $(grep -E '^=========     ' $L/${tool}_$name.txt | grep -vc ParallelReduce) hazard lines outside Kokkos' ParallelReduce"; }
OMP_NUM_THREADS=8 timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
timeout 60 $c/bin/nmodl_lanes_tests --gtest_brief=1 > $L/nmodl_lanes.txt 2>&1; stamp "nmodl_lanes_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|lanes \]' $L/nmodl_lanes.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 250 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
team() { echo --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=$1; }
mixed="--set network.cells=12 --set network.kick.cells=2 --set tstop=0.3 --set network.synapses_per_cell=4"
san racecheck mixed_team128 $c/bin/hinesbatch-sim $E/real_mixed.json $mixed $(team 128)
san racecheck p3_warp $c/bin/hinesbatch-sim $E/p3_synaptic.json --set network.cells=12 --set network.kick.cells=2 --set tstop=0.5 --set network.synapses_per_cell=4
san memcheck mixed $c/bin/hinesbatch-sim $E/real_mixed.json --set network.cells=24 --set network.kick.cells=2 --set network.synapses_per_cell=4 --set tstop=2
for m in catalogue builtin; do
  run hinesbatch-sim p3_10000_$m $E/p3_synaptic.json --set output={} $(cells 10000) --set tstop=100 --mechanisms $m
  run hinesbatch-sim ringtest_10000_$m $E/ringtest.json --set output={} --set network.cells=10000 --set record=[] --mechanisms $m
  run hinesbatch-sim ring_10000_$m $E/ring.json --set output={} --set network.cells=10000 --mechanisms $m
  run hinesbatch-sim mixed_2000_$m $E/real_mixed.json --set output={} $(cells 2000) --set tstop=50 --mechanisms $m
  run hinesbatch-sim-omp host_mixed_1000_$m $E/real_mixed.json --set output={} $(cells 1000) --set tstop=5 --mechanisms $m
done
for be in device host; do run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be; done
stamp done
