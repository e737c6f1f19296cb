#!/usr/bin/env bash
# Call E: each system's shared memory of a several-system two-pass block W / P scalars past
# a multiple of W after the previous one's (W = 16 in double; .devcarry/binE.txz, the working
# tree) against call B's build (.devcarry/binB.txz, the arrays back to back), in one run:
# 1) the Full-Interleaved two-pass points (the rule's block and 4 and 8 systems forced), each
#    build twice, alternating;
# 2) the whole CUDA unit suite of build E in three gtest shards, alone on the GPU;
# 3) compute-sanitizer memcheck on every two-pass test of the CUDA configurations and the
#    Auto tests, racecheck on the two-pass kernel tests of double Flat and Full-Interleaved;
# 4) Nsight Compute on build E's block of 8 systems at m = 4,096, 2^24 rows (call D's point).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in B E; do rm -rf $c/bin$b && mkdir -p $c/bin$b && tar xJf $c/bin$b.txz -C $c/bin$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for rep in 1 2; do
  for b in B E; do
    timeout 100 $c/bin$b/hinesbatch_solver_map --map-families=thomas --map-backends=device \
      --map-two-pass-systems=4,8 \
      --benchmark_filter='^Thomas/Device/FullInterleaved/TeamPerSystemTwoPass' \
      --benchmark_out=$M/map_$b$rep.json --benchmark_out_format=json > $M/map_$b$rep.txt 2>&1
    stamp "build $b rep $rep rc=$? $(grep -c '^Thomas' $M/map_$b$rep.txt) points, $(grep -c ERROR $M/map_$b$rep.txt) error lines"
  done
done
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
U=$c/binE/hinesbatch_unit_tests
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 300 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
auto=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"Auto*"}' $T/list.txt | grep -E "^ThomasBatchTest/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$cuda$auto" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
rc=$(awk '/^[A-Za-z]/{s=$1} /double, hinesbatch::layouts::(Flat|FullInterleaved), Kokkos::Cuda/{print s"RunsItsKernel:"s"ForcedBlockWarps:"s"FailuresInABlockOfEight:"s"Sizes"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$rc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
timeout 60 ncu --set full --kernel-name-base mangled -k regex:ThomasTwoPass -c 1 -o $OUT/ncu_m4096_s8 \
  $c/binE/hinesbatch_solver_map --map-families=thomas --map-backends=device --map-totals=24 --map-rows=4096 \
  --benchmark_filter="^Thomas/Device/FullInterleaved/TeamPerSystemTwoPass/m:4096/" > $OUT/ncu_m4096_s8.txt 2>&1
stamp "ncu rc=$?"
ncu --import $OUT/ncu_m4096_s8.ncu-rep --page details > $OUT/ncu_m4096_s8.details.txt 2>&1
(cd $OUT && tar cJf ncu.tar.xz ncu_* && rm -f ncu_*)
stamp done
