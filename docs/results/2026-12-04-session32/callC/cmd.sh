#!/usr/bin/env bash
# Call C: call B's build (.devcarry/binB.txz) again on the Full-Interleaved tridiagonal points
# of 2^20 and 2^22 rows, every schedule and the two-pass block forced to 4 and to 8 systems,
# 10 timed solves a point instead of 3, twice: call B's map had two single points at 2^20
# rows (m = 2,000 and 3,000) at half the rate of the same kernel measured beside them.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for rep in 1 2; do
  timeout 200 $c/binB/hinesbatch_solver_map --map-families=thomas --map-backends=device \
    --map-totals=20,22 --map-reps=10 --map-two-pass-systems=4,8 \
    --benchmark_filter='^Thomas/Device/FullInterleaved/' \
    --benchmark_out=$M/map_$rep.json --benchmark_out_format=json > $M/map_$rep.txt 2>&1
  stamp "rep $rep rc=$? $(grep -c '^Thomas' $M/map_$rep.txt) points, $(grep -c ERROR $M/map_$rep.txt) error lines"
done
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
