#!/usr/bin/env bash
# Call C: the landed build (call B's table, the grouped solve's rule as before call B)
# through the whole CUDA unit suite (three shards side by side), compute-sanitizer memcheck on
# the tridiagonal Auto and two-pass tests and the grouped multi-morphology tests of the CUDA
# configurations, and Nsight Compute on what a few thousand cells of the largest shared tree
# (10-2012-02-09-001, 3,187 nodes) run with several lanes per cell: the map's point of 2^22
# nodes (1,316 cells), Full-Interleaved, WarpPerSystem (its rows in level-1 scratch: the tree
# does not fit in shared memory) and BlockPerSystem (Auto there), the first four launches of the library's kernels each (the solve among them).
# .devcarry/binC.txz: hinesbatch_unit_tests, hinesbatch_solver_map.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binC/hinesbatch_unit_tests
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 330 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
$U --gtest_list_tests > $T/list.txt 2>&1
two=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
auto=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"Auto*"}' $T/list.txt | grep -E "^ThomasBatchTest/" | sort -u | tr '\n' ':')
grouped=$(awk '/^[A-Za-z]/{s=$1} /Cuda, .*Path\)(7|8|9)>/{print s"*"}' $T/list.txt | grep -E "^MultiMorphology/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 \
  --gtest_filter="$two$auto${grouped}GroupedMultiBatch.*" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
N=$OUT/ncu; mkdir -p $N
MAP=$c/binC/hinesbatch_solver_map
for sch in WarpPerSystem BlockPerSystem; do
  timeout 90 ncu --set full --kernel-name-base mangled -k regex:10hinesbatch4impl -c 4 -o $N/$sch \
    $MAP --map-backends=device --map-totals=22 --map-reps=1 --map-families=hines --map-trees=real \
    --benchmark_filter="^Hines/Device/FullInterleaved/$sch/real-10-2012-02-09-001/" > $N/$sch.txt 2>&1
  stamp "ncu $sch rc=$? $(grep -E '^Hines/' $N/$sch.txt | tail -1 | cut -c1-150)"
  ncu --import $N/$sch.ncu-rep --page details > $N/$sch.details.txt 2>&1
done
(cd $OUT && tar cJf ncu.tar.xz ncu && rm -rf ncu)
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
