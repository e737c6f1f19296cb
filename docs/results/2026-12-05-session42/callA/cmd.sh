#!/usr/bin/env bash
# Call A: the split schedule in the grouped mixed solve, on an H100. Each count's Grouped
# (the rule: choose_split_lanes), GroupedNoSplit (the build before, every group on its
# mono-morphology Auto) and GroupedSplit2/4/8 (every group split), with MonoMeanSize in the
# same run; the Grouped path also times every group alone and the largest tree's group
# under each schedule and split. hinesbatch_perf_tests of this branch (.devcarry/binA42.txz).
# `cmd.sh 1`: 6,400, 25,600 and 102,400 cells; `cmd.sh 2`: 256,000 and RealCable.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA42 && mkdir -p $c/binA42 && tar xJf $c/binA42.txz -C $c/binA42
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; mkdir -p $P
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binA42.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $c/binA42/hinesbatch_perf_tests --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
G='(Grouped|GroupedNoSplit|GroupedSplit2|GroupedSplit4|GroupedSplit8|MonoMeanSize)'
if [[ ${1:-1} == 1 ]]; then
  bench mixed6400 80 "^Multi/RealMixed/6400/$G/"
  bench mixed25600 100 "^Multi/RealMixed/25600/$G/"
  bench mixed102400 150 "^Multi/RealMixed/102400/$G/"
else
  bench mixed256000 250 "^Multi/RealMixed/256000/$G/"
  bench cable25600 80 '^Multi/RealCable/25600/(Grouped|GroupedNoSplit|LevelLaunches)/'
  bench cable102400 100 '^Multi/RealCable/102400/(Grouped|GroupedNoSplit)/'
fi
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
grep -h -o 'largest group: .*' $P/*.txt | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
