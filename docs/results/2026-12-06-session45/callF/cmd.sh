#!/usr/bin/env bash
# Call F: the split schedule's lanes per tree over the whole Full-Interleaved Hines map
# (Split@1..32 beside Split, whose K is choose_split_lanes', and Auto), to fit the rule that
# picks K on measured points; then what call E's mixed run left out by its timeout
# (RealMixed 256,000, RealCable), binS44 (the branch split-schedule at 259bf63).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binS44; mkdir -p $c/binS44 && tar xJf $c/binS44.txz -C $c/binS44
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; P=$OUT/perf; mkdir -p $M $P
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS44.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
timeout 150 $c/binS44/hinesbatch_solver_map --map-families=hines --map-backends=device --map-totals=20,22,24,26 \
  --map-trees=all --map-split-lanes=1,2,4,8,16,32 \
  --benchmark_filter='^Hines/Device/FullInterleaved/(Auto|Split)(@[0-9]+)?/' \
  --benchmark_out=$M/map_split.json --benchmark_out_format=json > $M/map_split.txt 2>&1
stamp "map rc=$? $(grep -c '^Hines' $M/map_split.txt) points, $(grep -c ERROR $M/map_split.txt) error lines"
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
F='^Multi/RealMixed/256000/(Grouped|MonoMeanSize)/|^Multi/RealCable/(25600|102400)/Grouped/'
OMP_NUM_THREADS=16 timeout 200 $c/binS44/hinesbatch_perf_tests --benchmark_filter="$F" --benchmark_min_time=0.05 \
  --benchmark_out=$P/s44.json --benchmark_out_format=json > $P/s44.txt 2>&1
stamp "s44 rc=$? $(grep -c manual_time $P/s44.txt) results, $(grep -c ERROR $P/s44.txt) errors"
grep -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/s44.txt | sed -E "s/ .*nodes_per_s=/ /" | tee -a $S
grep -h -o 'largest group: .*' $P/s44.txt | tee -a $S
xz -9 $P/*; (cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
