#!/usr/bin/env bash
# Call B: the mixed real cells at 25,600, 102,400 and 256,000 cells (every multi-morphology
# path at 25,600; at the larger counts the paths that finish there: the grouped ones,
# NaiveSorted, LevelLaunches, MonoMeanSize), the mix's own trees each alone at 25,600, and
# the CoreNEURON-style peer (hines_peers --cells) on the real mixes of every count of calls
# A and B.
# .devcarry/binA.txz (call A's binaries), .devcarry/peers/hines_peers.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; mkdir -p $P
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binA/hinesbatch_perf_tests
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $B --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
big='(Grouped|GroupedFlat|GroupedInOrder|GroupedOwnAuto|NaiveSorted|LevelLaunches|MonoMeanSize)'
bench mixed25600 170 '^Multi/(RealMixed|RealCable)/25600/'
bench mixed102400 130 "^Multi/(RealMixed|RealCable)/102400/$big/"
bench mixed256000 180 "^Multi/(RealMixed|RealCable)/256000/$big/"
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
args=()
for n in 1000 6400 25600 102400 256000; do
  $c/binA/hinesbatch-export-cells $P/real_$n.bin --mix real --cells $n > /dev/null 2>&1
  args+=(--cells $P/real_$n.bin)
done
timeout 100 $c/peers/hines_peers "${args[@]}" --type f64 --out $P/hines_peers.json > $P/hines_peers.txt 2>&1
stamp "peers rc=$?"; tail -12 $P/hines_peers.txt | tee -a $S
rm -f $P/*.bin
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
