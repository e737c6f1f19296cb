#!/usr/bin/env bash
# Call E: the branch split-schedule (259bf63): the split schedule's forced lanes in the
# map (--map-split-lanes), half a warp's systems a lane where a team cannot hold 32 x K
# threads, and the junction grown to the best modelled time; with session 43's call B in
# it (the loads ahead chosen by occupancy). The whole CUDA unit suite, the sanitizers on
# the split tests (both kernels, 1-32 lanes), and the Full-Interleaved Hines map with
# Split and Split@K (for Auto's table: solver_map.py --admit Split). Then mixed real cells
# grouped by tree (Multi/RealMixed, RealCable; Grouped, fp64) with the mono-morphology
# reference (MonoMeanSize), this build against session 42's split kernel (binB42p).
# Binaries: .devcarry/binS44.txz, binB42p.txz.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS44 binB42p; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; P=$OUT/perf; mkdir -p $U $M $P
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS44.txt $c/binB42p.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binS44/hinesbatch_unit_tests
for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 300 $B > $U/unit_$i.log 2>&1 & done; wait
stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $($B --gtest_list_tests | grep -c '^  ')"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 120 $CS --tool $tool $B --gtest_filter='HinesBatchSolve/15.Split*:GroupedMultiBatch.SplitLanes' > $U/san_$tool.log 2>&1
  stamp "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/san_$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $U/san_$tool.log | tr '\n' ' ')"
done
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
timeout 60 $c/binS44/hinesbatch_solver_map --map-families=hines --map-backends=device --map-totals=20,22,24,26 \
  --map-trees=all --map-split-lanes=8,16,32 \
  --benchmark_filter='^Hines/Device/FullInterleaved/(Auto|PerSystem|PerSystemStaged|BlockPerSystem|Split)(@[0-9]+)?/' \
  --benchmark_out=$M/map_fi.json --benchmark_out_format=json > $M/map_fi.txt 2>&1
stamp "map rc=$? $(grep -c '^Hines' $M/map_fi.txt) points, $(grep -c ERROR $M/map_fi.txt) error lines"
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
bench() {  # binary name timeout filter
  OMP_NUM_THREADS=16 timeout $3 $c/$1/hinesbatch_perf_tests --benchmark_filter="$4" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$2.json --benchmark_out_format=json > $P/$2.txt 2>&1
  stamp "$2 rc=$? $(grep -c manual_time $P/$2.txt) results, $(grep -c ERROR $P/$2.txt) errors"
}
F='^Multi/RealMixed/(6400|25600|102400|256000)/(Grouped|MonoMeanSize)/|^Multi/RealCable/(25600|102400)/Grouped/'
show() { grep -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/$1.txt | sed -E "s/ .*nodes_per_s=/ /; s/^/$1 /" | tee -a $S; }
bench binS44 s44 100 "$F"; show s44
grep -h -o 'largest group: .*' $P/s44.txt | tee -a $S
bench binB42p s42 $(( SECONDS < 480 ? 575 - SECONDS : 95 )) "$F"; show s42
xz -9 $P/*; (cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
