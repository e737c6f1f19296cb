#!/usr/bin/env bash
# Call E (binE.txz, the final build: call C's code with the Hines drivers' kernels moved
# into solvers/impl/, no change to any kernel): the whole CUDA unit suite in two shards,
# Auto at every Hines device point of the map (against call D), memcheck on the packed and
# block lane solves, and the simulator's rasters.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binE.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; M=$OUT/map; mkdir -p $L $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 230 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
# The CUDA configurations of the packed lanes paths (Path 5 and 6: PackedLanes, PackedLanesSmallScratch).
$U --gtest_list_tests --gtest_filter='MultiMorphology/*' > $L/list.txt 2>&1
pl=$(awk '/^MultiMorphology\//{s=$1} /Cuda.*Path\)[56]>/{print s"*"}' $L/list.txt | sort -u | tr '\n' ':')
echo "packed lanes suites: $pl" >> $S
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$pl" > $L/memcheck.txt 2>&1
stamp "memcheck packed lanes rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
timeout 60 $c/bin/hinesbatch_solver_map --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_filter='/Auto/' --benchmark_out=$M/map_device_hines_auto.json --benchmark_out_format=json > $M/map_device_hines_auto.txt 2>&1
stamp "map hines auto rc=$?"
xz -9 $M/map_device_hines_auto.json $M/map_device_hines_auto.txt
run() { local name=$1; shift
  timeout 60 $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
(cd $OUT && tar czf d.tgz d && rm -rf d)
stamp done
