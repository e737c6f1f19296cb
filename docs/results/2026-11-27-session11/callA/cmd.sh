#!/usr/bin/env bash
# Call A (binA.txz: the step schedules' shared members in their base, records every
# record_dt, the public simulation headers without kernels; no kernel changed): the whole
# CUDA unit suite in two shards, then the simulator's rasters and rates against session 10's
# md5 sums, a run recording every 0.1 ms against the every-step run's rows, and
# compute-sanitizer on the on-chip records and the cells schedule's synapses.
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 250 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
xz -9 $L/suite_*.txt
stamp done
