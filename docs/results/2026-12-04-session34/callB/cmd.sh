#!/usr/bin/env bash
# Call B: the build with Auto's new Full-Interleaved tridiagonal table (made from call A's
# map) and the grouped solve's new rule (the groups of the largest trees decided by their own
# count): the Full-Interleaved tridiagonal device map again (Auto under the new table beside
# every schedule), and the grouped paths on the real mixes (Grouped: the rule;
# GroupedBatchAuto: every group by the whole batch, the rule before; GroupedOwnAuto: every
# group by its own count), LevelLaunches, MonoMeanSize, and Grouped on Fig. 14.
# .devcarry/binB.txz: hinesbatch_solver_map, hinesbatch_perf_tests, hinesbatch_unit_tests.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; P=$OUT/perf; mkdir -p $M $P
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binB/hinesbatch_solver_map
timeout 150 $MAP --map-families=thomas --map-backends=device \
  --benchmark_filter='^Thomas/Device/FullInterleaved/' \
  --benchmark_out=$M/map_device.json --benchmark_out_format=json > $M/map_device.txt 2>&1
stamp "thomas FI device map rc=$? $(grep -c '^Thomas' $M/map_device.txt) points, $(grep -c ERROR $M/map_device.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
B=$c/binB/hinesbatch_perf_tests
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $B --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
bench real25600 120 '^Multi/(RealMixed|RealCable)/25600/(Grouped|GroupedBatchAuto|GroupedOwnAuto|GroupedFlat|LevelLaunches|MonoMeanSize)/'
bench real256000 200 '^Multi/RealMixed/256000/(Grouped|GroupedBatchAuto|MonoMeanSize)/'
bench fig14 60 '^Multi/Fig14/levels2/(25600|256000)/Grouped/'
grep -h manual_time $P/*.txt | tee -a $S
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
