#!/usr/bin/env bash
# Session 46's call C: main with Auto's Full-Interleaved ThomasVBatch table not computing the
# padding remade from call B's map (binS48), and the one-thread-per-system solve before the
# in-step change (binS45map: session 45's solver_map, 0d4452e, the same ThomasVBatch code as
# main before a25da6c).
# 1. The Full-Interleaved ThomasVBatch map not computing the padding: Auto (binS48), and
#    PerSystem before (binS45map) and after (binS48), A-B-B-A by binary.
# 2. The CUDA tridiagonal tests (every ThomasBatchTest / ThomasBatchFailures / packed /
#    two-pass / in-memory configuration on Cuda).
# Carry: .devcarry/binS48.txz, binS48.txt, binS45map.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS48 binS45map; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; mkdir -p $U $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS48.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run_map() {  # name binary filter
  timeout 100 $c/$2/hinesbatch_solver_map --map-families=thomasv --map-backends=device --benchmark_filter="$3" \
    --benchmark_out=$M/map_$1.json --benchmark_out_format=json > $M/map_$1.txt 2>&1
  stamp "map $1 rc=$? $(grep -c '^ThomasV' $M/map_$1.txt) points, $(grep -c ERROR $M/map_$1.txt) error lines"
}
run_map old_a binS45map '^ThomasV/Device/FullInterleaved/PerSystem/ncp-'
run_map new_a binS48 '^ThomasV/Device/FullInterleaved/(Auto|PerSystem)/ncp-'
run_map new_b binS48 '^ThomasV/Device/FullInterleaved/(Auto|PerSystem)/ncp-'
run_map old_b binS45map '^ThomasV/Device/FullInterleaved/PerSystem/ncp-'
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
B=$c/binS48/hinesbatch_unit_tests
$B --gtest_list_tests > $U/list.txt 2>&1
th=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $U/list.txt | grep -E "^Thomas" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 200 $B --gtest_filter="${th}ThomasInStep.*" --gtest_brief=1 > $U/thomas_tests.log 2>&1
stamp "Thomas tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $U/thomas_tests.log | tr '\n' ' ')"
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
stamp done
