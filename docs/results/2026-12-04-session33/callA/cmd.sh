#!/usr/bin/env bash
# Call A: multi-morphology batches grouped by tree (GroupedMultiBatch) against every other
# multi-morphology path, the mono-morphology Auto on the shared file nearest the mix's mean
# size, and the CoreNEURON-style peer, in one run:
# 1) Multi/RealMixed and Multi/RealCable at 25,600 cells, every path;
# 2) Multi/RealMixed at 256,000 cells: the grouped paths, NaiveSorted, LevelLaunches,
#    MonoMeanSize;
# 3) Multi/Fig14 (one shared tree) at 25,600 and 256,000 cells: Mono, MonoTeam, Grouped;
# 4) the peers (hines_peers) on the real mixes of 25,600 and 256,000 cells, f64;
# 5) the multi-morphology unit tests of the CUDA configurations, and compute-sanitizer
#    memcheck on the grouped ones.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; T=$OUT/t; mkdir -p $P $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binA/hinesbatch_perf_tests
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $B --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
bench real25600 150 '^Multi/(RealMixed|RealCable)/25600/'
bench real256000 170 '^Multi/RealMixed/256000/(Grouped|GroupedFlat|GroupedInOrder|GroupedOwnAuto|NaiveSorted|LevelLaunches|MonoMeanSize)/'
bench fig14 60 '^Multi/Fig14/levels2/(25600|256000)/(Mono|MonoTeam|Grouped)/'
grep -h manual_time $P/*.txt | awk '{printf "%-62s %s %s\n", $1, $2, $3}' | tee -a $S
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
for n in 25600 256000; do
  $c/binA/hinesbatch-export-cells $P/real_$n.bin --mix real --cells $n > /dev/null 2>&1
done
timeout 90 $c/peers/hines_peers --cells $P/real_25600.bin --cells $P/real_256000.bin --type f64 \
  --out $P/hines_peers.json > $P/hines_peers.txt 2>&1
stamp "peers rc=$?"; cat $P/hines_peers.txt | tail -8 | tee -a $S
rm -f $P/*.bin
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
U=$c/binA/hinesbatch_unit_tests
$U --gtest_list_tests > $T/list.txt 2>&1
multi=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^MultiMorphology/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 150 $U --gtest_filter="$multi:GroupedMultiBatch.*:MultiMorphologyBackends.*" > $T/multi.txt 2>&1
stamp "multi tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $T/multi.txt | tr '\n' ' ')"
grouped=$(awk '/^[A-Za-z]/{s=$1} /Cuda, .*Path\)(7|8|9)>/{print s"*"}' $T/list.txt | grep -E "^MultiMorphology/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 \
  --gtest_filter="${grouped}GroupedMultiBatch.*" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
