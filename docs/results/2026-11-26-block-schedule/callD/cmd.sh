#!/usr/bin/env bash
# Call D (binC.txz): Auto with the new Hines table at every device point of the Hines map,
# racecheck on the block schedule's shapes (double, Flat), and the simulator's rasters (its
# kernels share the lane solve the block schedule uses): P3 100,000 cells and mixed real cells.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; M=$OUT/map; mkdir -p $L $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
$U --gtest_list_tests --gtest_filter='HinesBatchSolve/*.BlockShapes' > $L/list.txt 2>&1
flat=$(awk '/^HinesBatchSolve\//{s=$1} /double.*Flat.*Cuda|Flat.*double.*Cuda/{print s"BlockShapes"}' $L/list.txt | head -1)
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$flat:$(echo $flat | sed 's/BlockShapes/PerSystemThreadsTakingSeveralSystems/')" > $L/racecheck.txt 2>&1
stamp "racecheck $flat rc=$? $(grep -E 'RACECHECK SUMMARY' $L/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $L/racecheck.txt | tr '\n' ' ')"
timeout 150 $c/bin/hinesbatch_solver_map --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_filter='/Auto/' --benchmark_out=$M/map_device_hines_auto.json --benchmark_out_format=json > $M/map_device_hines_auto.txt 2>&1
stamp "map hines auto rc=$?"
xz -9 $M/map_device_hines_auto.json $M/map_device_hines_auto.txt
run() { local name=$1; shift
  timeout 120 $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run large2000 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
(cd $OUT && tar czf d.tgz d && rm -rf d)
stamp done
