#!/usr/bin/env bash
# Call B (binA.txz, call A's build): memcheck and racecheck on the two users of the new
# LaneScratch (BlockPerSystem's shapes, the packed CellLanes paths) and on records of
# mechanism variables (the schedules' records, now in their base); Auto at every Hines
# device point of the solver map (against 2026-11-26-block-schedule call E); the simulator's
# rasters and rates (against the same calls' md5 sums).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; M=$OUT/map; mkdir -p $L $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
$U --gtest_list_tests --gtest_filter='HinesBatchSolve/*.BlockShapes:MultiMorphology/*' > $L/list.txt 2>&1
block=$(awk '/^HinesBatchSolve\//{s=$1} /Cuda/ && s ~ /^HinesBatchSolve/{print s"BlockShapes"}' $L/list.txt | sort -u | tr '\n' ':')
flat=$(awk '/^HinesBatchSolve\//{s=$1} /double.*Flat.*Cuda|Flat.*double.*Cuda/{print s"BlockShapes"}' $L/list.txt | head -1)
packed=$(awk '/^MultiMorphology\//{s=$1} /Cuda.*Path\)[56]>/{print s"*"}' $L/list.txt | sort -u | tr '\n' ':')
echo "block: $block; flat: $flat; packed: $packed" >> $S
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$block$packed" > $L/memcheck.txt 2>&1
stamp "memcheck block+packed rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
p1=$(echo "$packed" | cut -d: -f1)
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$flat:$p1" > $L/racecheck.txt 2>&1
stamp "racecheck block flat double + packed rc=$? $(grep -E 'RACECHECK SUMMARY' $L/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $L/racecheck.txt | tr '\n' ' ')"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter='*Record*:*record*' > $L/memcheck_records.txt 2>&1
stamp "memcheck records rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_records.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck_records.txt | tr '\n' ' ')"
timeout 90 $c/bin/hinesbatch_solver_map --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_filter='/Auto/' --benchmark_out=$M/map_device_hines_auto.json --benchmark_out_format=json > $M/map_device_hines_auto.txt 2>&1
stamp "map hines auto rc=$?"
xz -9 $M/map_device_hines_auto.json $M/map_device_hines_auto.txt
run() { local name=$1; shift
  timeout 90 $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m['wall_s'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run large2000 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
run ringtest65536 examples/sim/ringtest.json --set network.cells=65536 --set record=[]
run p3syn100000_b examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run mixed20000_b examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
(cd $OUT && tar czf d.tgz d && rm -rf d)
stamp done
