#!/usr/bin/env bash
# Call F (binF.txz: the final tree, 727a709: call C's device code with the host-side review
# commits): the whole CUDA unit suite in two shards, and the membrane case on chip.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binF.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
timeout 60 $c/bin/hinesbatch-sim scripts/validation/cases/hh_96ML_membrane_by_region.json --on-chip on --quiet --set 'output={}' --spikes $L/m.spk > $L/m.log 2>&1
stamp "membrane on chip rc=$? $(wc -l < $L/m.spk) spikes $(md5sum < $L/m.spk | cut -c1-8)"
xz -9 $L/suite_*.txt; rm -f $L/*.spk
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
