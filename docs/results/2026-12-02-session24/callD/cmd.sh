#!/usr/bin/env bash
# Call D: Nsight Compute on the landed build (.devcarry/binC.txz, call C's): the staged
# kernel on the 3,187-node tree at 2^26 nodes and the 1,000-node chain at 2^28 (Flat), and
# PerSystem on the first, to name what binds the staged schedule.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binC/hinesbatch_solver_map
$MAP --benchmark_list_tests --map-backends=device --map-families=hines --map-totals=26 2>/dev/null | grep -E "Flat/(PerSystemStaged|PerSystem)/.*n:3187" > $T/names.txt
prof() {  # name kernel-regex benchmark-filter total
  timeout 120 ncu --kernel-name-base demangled --kernel-name "regex:$2" --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section SourceCounters \
    $MAP --map-backends=device --map-families=hines --map-totals=$4 \
    --benchmark_filter="$3" > $T/ncu_$1.txt 2>&1
  stamp "ncu $1 rc=$? $(grep -cE 'Duration' $T/ncu_$1.txt) sections"
}
prof staged3187 SolvePerSystemStaged 'Hines/Device/Flat/PerSystemStaged/real-10-2012-02-09-001/n:3187/total:26/' 26
prof stagedchain1000 SolvePerSystemStaged 'Hines/Device/Flat/PerSystemStaged/chain/n:1000/total:28/' 28
prof persystem3187 'SolvePerSystem<' 'Hines/Device/Flat/PerSystem/real-10-2012-02-09-001/n:3187/total:26/' 26
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
