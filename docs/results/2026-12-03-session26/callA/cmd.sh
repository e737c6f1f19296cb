#!/usr/bin/env bash
# Call A: Auto's Hines table with a chunk shape per point for the staged schedule (32 rows
# for Flat batches, the L2 prefetch for Full-Interleaved ones, where the map of session 25's
# call E measured them fastest), and the map's Auto labels naming what Auto ran at each batch:
# 1) the whole Hines part of the device map (every tree, every schedule, 2^20-2^28 nodes,
#    both layouts) with the shapes Auto may take forced beside it (PerSystemStaged@32,
#    PerSystemStaged@16p), and a new one: chunks copied to scratch asynchronously (cp.async,
#    every copy of a chunk in flight at once: @16a, @32a);
# 2) compute-sanitizer memcheck on the staged chunk test (every shape Auto may take) of every
#    CUDA configuration, racecheck on those of double Flat and Full-Interleaved batches
#    (where the other shapes are instantiated). The unit tests are those of the shapes' build
#    (no asynchronous copies); the map binary has them.
# .devcarry/binG.txz: hinesbatch_unit_tests, hinesbatch_solver_map.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binG && mkdir -p $c/binG && tar xJf $c/binG.txz -C $c/binG
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binG/hinesbatch_unit_tests
MAP=$c/binG/hinesbatch_solver_map
timeout 280 $MAP --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --map-staged-shapes=32,16p,16a,32a \
  --benchmark_out=$M/map_device_hines.json --benchmark_out_format=json > $M/map_device_hines.txt 2>&1
stamp "map hines rc=$? $(grep -c ERROR $M/map_device_hines.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^HinesBatchSolve" | sort -u | tr '\n' ':')
mc=$(echo "$cuda" | tr ':' '\n' | grep . | sed 's/\*$/StagedAcross*/' | tr '\n' ':')
rc='HinesBatchSolve/12.StagedAcross*:HinesBatchSolve/15.StagedAcross*'
echo "$mc" > $T/filter.txt
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$rc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
# The asynchronous copies under the sanitizers: the map's points of two trees at 2^20 nodes.
af='Hines/Device/(Flat|FullInterleaved)/PerSystemStaged@(16|32)a/(chain|real-951118a)/n:[0-9]+/total:20/'
for tool in memcheck racecheck; do
  OMP_NUM_THREADS=8 timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $MAP \
    --map-backends=device --map-families=hines --map-totals=20 --map-staged-shapes=16a,32a \
    --benchmark_filter="$af" > $T/map_$tool.txt 2>&1
  stamp "map $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $T/map_$tool.txt | tail -1) $(grep -cE 'PerSystemStaged@' $T/map_$tool.txt) points"
done
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
