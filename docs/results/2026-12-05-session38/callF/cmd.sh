#!/usr/bin/env bash
# Call F: what the mixed real cells' map over batch sizes (PERFORMANCE.md) lacks at 102,400
# and 256,000 cells: the mono-morphology reference of the mix's mean size (MonoMeanSize)
# beside Grouped in one run, LevelLaunches at 102,400, and RealCable (the cells as the
# simulation discretises them) past 25,600. hinesbatch_perf_tests of HEAD (.devcarry/binF.txz).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binF && mkdir -p $c/binF && tar xJf $c/binF.txz -C $c/binF
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; mkdir -p $P
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binF.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $c/binF/hinesbatch_perf_tests --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
bench mixed102400 140 '^Multi/RealMixed/102400/(Grouped|MonoMeanSize|LevelLaunches)/'
bench mixed256000 130 '^Multi/RealMixed/256000/(Grouped|MonoMeanSize)/'
bench cable102400 110 '^Multi/RealCable/102400/(Grouped|GroupedFlat|GroupedOwnAuto)/'
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
