#!/usr/bin/env bash
# Call G: the branch split-schedule with the mono-morphology split rule fitted on call F
# (mono_split_lanes: lanes doubled while the trees fall short of an eighth of the threads the
# GPU holds) and Auto's Hines table admitting Split at the 60 points where Split at that K
# beat Auto by 5% in call F. The whole CUDA unit suite, the sanitizers on the split tests,
# the Full-Interleaved Hines map with Auto beside every schedule it chooses among, and the
# mixed real cells with their mono-morphology reference (MonoMeanSize, whose Auto now may
# take Split). Binaries: .devcarry/binS45.txz.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binS45; mkdir -p $c/binS45 && tar xJf $c/binS45.txz -C $c/binS45
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; P=$OUT/perf; mkdir -p $U $M $P
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS45.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binS45/hinesbatch_unit_tests
for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 300 $B > $U/unit_$i.log 2>&1 & done; wait
stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $($B --gtest_list_tests | grep -c '^  ')"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 120 $CS --tool $tool $B --gtest_filter='HinesBatchSolve/15.Split*:GroupedMultiBatch.SplitLanes:SplitLanes.*' > $U/san_$tool.log 2>&1
  stamp "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/san_$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $U/san_$tool.log | tr '\n' ' ')"
done
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
timeout 90 $c/binS45/hinesbatch_solver_map --map-families=hines --map-backends=device --map-totals=20,22,24,26 \
  --map-trees=all \
  --benchmark_filter='^Hines/Device/FullInterleaved/(Auto|PerSystem|PerSystemStaged|BlockPerSystem|Split)/' \
  --benchmark_out=$M/map_fi.json --benchmark_out_format=json > $M/map_fi.txt 2>&1
stamp "map rc=$? $(grep -c '^Hines' $M/map_fi.txt) points, $(grep -c ERROR $M/map_fi.txt) error lines"
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
F='^Multi/RealMixed/(25600|102400)/(Grouped|MonoMeanSize)/'
OMP_NUM_THREADS=16 timeout $(( SECONDS - t0 < 420 ? 560 - (SECONDS - t0) : 100 )) $c/binS45/hinesbatch_perf_tests --benchmark_filter="$F" --benchmark_min_time=0.05 \
  --benchmark_out=$P/s45.json --benchmark_out_format=json > $P/s45.txt 2>&1
stamp "s45 rc=$? $(grep -c manual_time $P/s45.txt) results, $(grep -c ERROR $P/s45.txt) errors"
grep -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/s45.txt | sed -E "s/ .*nodes_per_s=/ /" | tee -a $S
grep -h -o 'largest group: .*' $P/s45.txt | tee -a $S
xz -9 $P/*; (cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
