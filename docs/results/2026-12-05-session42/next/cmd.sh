#!/usr/bin/env bash
# Planned, not run: the branch split-schedule (HinesSchedule::Split) on a GPU.
# `cmd.sh checks`: the whole CUDA unit suite in six shards, then compute-sanitizer (memcheck,
# racecheck) on the Split tests of the double Full-Interleaved CUDA configuration and the
# grouped batch's. `cmd.sh map`: the solver map's Full-Interleaved Hines part at 2^20-2^26
# with Split beside PerSystem, PerSystemStaged, BlockPerSystem and Auto, for Auto's table.
# Binaries, built from the branch with the cuda-h100 preset: .devcarry/binS.txz holding
# hinesbatch_unit_tests and hinesbatch_solver_map (.devcarry/binS.txt says which commit).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -x $c/binS/hinesbatch_unit_tests ] || { mkdir -p $c/binS && tar xJf $c/binS.txz -C $c/binS; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; mkdir -p $U $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binS/hinesbatch_unit_tests
if [[ ${1:-checks} == checks ]]; then
  for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 330 $B > $U/unit_$i.log 2>&1 & done; wait
  stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $($B --gtest_list_tests | grep -c '^  ')"
  grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
  CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    timeout 90 $CS --tool $tool $B --gtest_filter='HinesBatchSolve/15.Split*:HinesBatchSolve/15.TinyTrees:GroupedMultiBatch.*' > $U/san_$tool.log 2>&1
    stamp "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/san_$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $U/san_$tool.log | tr '\n' ' ')"
  done
  (cd $OUT && tar cJf u.tar.xz u && rm -rf u)
else
  timeout 500 $c/binS/hinesbatch_solver_map --map-families=hines --map-backends=device \
    --map-totals=20,22,24,26 --map-trees=all \
    --benchmark_filter='^Hines/Device/FullInterleaved/(Auto|PerSystem|PerSystemStaged|BlockPerSystem|Split)/' \
    --benchmark_out=$M/map_fi.json --benchmark_out_format=json > $M/map_fi.txt 2>&1
  stamp "map rc=$? $(grep -c '^Hines' $M/map_fi.txt) points, $(grep -c ERROR $M/map_fi.txt) error lines"
  xz -9 $M/*
  (cd $OUT && tar cf map.tar map && rm -rf map)
fi
stamp done
