#!/usr/bin/env bash
# Call D: the landed build: packed ThomasVBatch's Auto decided by its table before any pass
# over the offsets (by the mean size), and the pass that finds the largest system for the
# warp schedule strided with a few atomic slots instead of an atomic max per system. The
# Flat ThomasVBatch map again for Auto, PerSystem and WarpPerSystem (packed and padded
# storage; callC/compare.py's comparison with call A: compare.txt); every tridiagonal test
# (Thomas*) of the unit suite; compute-sanitizer memcheck on the packed and padded
# ThomasVBatch tests of the CUDA configurations.
# .devcarry/binD.txz: hinesbatch_unit_tests, hinesbatch_solver_map.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binD && mkdir -p $c/binD && tar xJf $c/binD.txz -C $c/binD
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binD/hinesbatch_solver_map
timeout 130 $MAP --map-families=thomasv --map-backends=device \
  --benchmark_filter='^ThomasV/Device/Flat/(Auto|PerSystem|WarpPerSystem)/' \
  --benchmark_out=$M/map_device_Flat.json --benchmark_out_format=json > $M/map_device_Flat.txt 2>&1
stamp "thomasv Flat rc=$? $(grep -c '^ThomasV' $M/map_device_Flat.txt) points, $(grep -c ERROR $M/map_device_Flat.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
U=$c/binD/hinesbatch_unit_tests
OMP_NUM_THREADS=16 timeout 150 $U --gtest_filter='Thomas*' > $T/thomas.txt 2>&1
stamp "Thomas* tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $T/thomas.txt | tr '\n' ' ')"
$U --gtest_list_tests > $T/list.txt 2>&1
packed=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^ThomasPackedTest/" | sort -u | tr '\n' ':')
vbatch=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"VBatch*"}' $T/list.txt | grep -E "^ThomasBatchTest/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 \
  --gtest_filter="$packed$vbatch" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
