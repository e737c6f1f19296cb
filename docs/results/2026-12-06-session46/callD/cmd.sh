#!/usr/bin/env bash
# Session 46's call D: PERFORMANCE.md's ThomasVBatch table (the ThomasBatch paper's Fig. 13
# inputs: sizes uniform in [256, 512], 25,600 and 256,000 systems, fp64) before the in-step
# solve (binS46p: hinesbatch_perf_tests of 76b886b) and after (binS48p: e45a042), A-B-B-A.
# Carry: .devcarry/binS46p.txz, binS48p.txz, binS48.txt, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS46p binS48p; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; mkdir -p $P
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS48.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for run in S46a S48a S48b S46b; do
  b=binS46p; [ ${run:0:3} = S48 ] && b=binS48p
  OMP_NUM_THREADS=16 timeout 120 $c/$b/hinesbatch_perf_tests --benchmark_filter='^ThomasVBatch/[A-Za-z0-9]+/f64/(25600|256000)/' \
    --benchmark_min_time=0.1 --benchmark_out=$P/$run.json --benchmark_out_format=json > $P/$run.txt 2>&1
  stamp "$run rc=$? $(grep -c manual_time $P/$run.txt) results, $(grep -c ERROR $P/$run.txt) errors"
done
grep -h -o 'ThomasVBatch/NoComputingPadding/f64/[0-9]*/manual_time.*items_per_second=[^ ]*' $P/*.txt | sed -E 's/ .*items_per_second=/ /' | tee -a $S
xz -9 $P/*; (cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
