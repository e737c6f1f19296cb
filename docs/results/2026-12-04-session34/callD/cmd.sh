#!/usr/bin/env bash
# Call D: the mono-morphology reference of the mixed target measured on the mix's own trees
# (Multi/RealMixed/25600/MonoSameTrees: each of the 12 shared files alone as a batch of 25,600
# cells, Auto, Full-Interleaved; the mix's nodes timed at those rates), beside the grouped
# solve, LevelLaunches and the mean-size file's mono rate in the same run.
# .devcarry/binD.txz: hinesbatch_perf_tests (the landed source).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binD && mkdir -p $c/binD && tar xJf $c/binD.txz -C $c/binD
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; mkdir -p $P
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binD/hinesbatch_perf_tests
OMP_NUM_THREADS=16 timeout 400 $B --benchmark_filter='^Multi/RealMixed/25600/(MonoSameTrees|Grouped/|LevelLaunches/|MonoMeanSize/)' \
  --benchmark_min_time=0.05 --benchmark_out=$P/mixed.json --benchmark_out_format=json > $P/mixed.txt 2>&1
stamp "mixed rc=$? $(grep -c manual_time $P/mixed.txt) results, $(grep -c ERROR $P/mixed.txt) errors"
grep -h manual_time $P/*.txt | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
