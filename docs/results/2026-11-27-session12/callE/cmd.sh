#!/usr/bin/env bash
# Call E (binM.txz: hinesbatch_solver_map of this session's code, no solver change since
# session 9): the host map's parts that session 9's calls did not reach (#35), on the H100
# machine's 16 cores: Thomas Full-Interleaved past 512 rows (m = 513 ... 100,000) and Hines at 2^24
# nodes (2^22 ran in session 9, callC). Google Benchmark JSON in map/.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binM && mkdir -p $c/binM && tar xJf $c/binM.txz -C $c/binM
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; mkdir -p $OUT/map
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
map=$c/binM/bin/hinesbatch_solver_map
lscpu | grep -E "Model name|^CPU\(s\)" | tee $OUT/cpu.txt
if [ "${1:-}" = hines ]; then
  timeout 560 $map --map-backends=host --map-families=hines --map-host-totals=24 \
    --benchmark_out=$OUT/map/map_host_hines_24.json --benchmark_out_format=json > $OUT/map/map_host_hines_24.txt 2>&1
  stamp "map host hines 2^24 rc=$?"
else
  timeout 560 $map --map-backends=host --map-families=thomas --map-host-totals=22,24 \
    --map-rows=513,700,1000,1024,1500,2000,3000,4096,5000,8192,8193,10000,20000,50000,100000 \
    --benchmark_filter='Thomas/Host/FullInterleaved' \
    --benchmark_out=$OUT/map/map_host_thomas_fi.json --benchmark_out_format=json > $OUT/map/map_host_thomas_fi.txt 2>&1
  stamp "map host thomas full-interleaved m > 512 rc=$?"
fi
(cd $OUT && tar cJf map.tar.xz map && rm -rf map)
stamp done
