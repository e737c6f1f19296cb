#!/usr/bin/env bash
# Call C: the grouped rule as landed at 102,400 cells (RealMixed and RealCable, the Grouped
# path only), on call B's machine, with call B's binaries (.devcarry/binB42.txz).
c=$PWD/.devcarry; mkdir -p $c/binB42 && tar xJf $c/binB42.txz -C $c/binB42; export LD_LIBRARY_PATH=$c/lib HINESBATCH_SHARED_DIR=$c/shared OMP_NUM_THREADS=16 OMP_PROC_BIND=false; timeout 200 $c/binB42/hinesbatch_perf_tests --benchmark_filter='^Multi/(RealMixed|RealCable)/102400/Grouped/' --benchmark_min_time=0.05 --benchmark_out=$OUT/g102400.json --benchmark_out_format=json > $OUT/g102400.txt 2>&1; echo rc=$?; grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $OUT/g102400.txt | sed -E 's/ .*nodes_per_s=/ /'; grep -o 'largest group: .*' $OUT/g102400.txt
