#!/usr/bin/env bash
# Call C: the build with Auto's ThomasVBatch tables (made from call A's map): the
# Full-Interleaved ThomasVBatch map again (every schedule, Auto now from its tables) and the
# Flat one for Auto and the two schedules the tables take there (PerSystem, WarpPerSystem);
# the whole CUDA unit suite (three shards side by side); compute-sanitizer memcheck on the
# tridiagonal tests of the CUDA configurations that run ThomasVBatch (padded and packed).
# .devcarry/binC.txz: hinesbatch_unit_tests, hinesbatch_solver_map.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binC/hinesbatch_solver_map
run_map() {  # name timeout filter
  timeout $2 $MAP --map-families=thomasv --map-backends=device --benchmark_filter="$3" \
    --benchmark_out=$M/map_device_$1.json --benchmark_out_format=json > $M/map_device_$1.txt 2>&1
  stamp "thomasv $1 rc=$? $(grep -c '^ThomasV' $M/map_device_$1.txt) points, $(grep -c ERROR $M/map_device_$1.txt) error lines"
}
run_map FullInterleaved 200 '^ThomasV/Device/FullInterleaved/'
run_map Flat 120 '^ThomasV/Device/Flat/(Auto|PerSystem|WarpPerSystem)/'
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
U=$c/binC/hinesbatch_unit_tests
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 330 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
$U --gtest_list_tests > $T/list.txt 2>&1
packed=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^ThomasPackedTest/" | sort -u | tr '\n' ':')
vbatch=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"VBatch*"}' $T/list.txt | grep -E "^ThomasBatchTest/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 \
  --gtest_filter="$packed$vbatch" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
