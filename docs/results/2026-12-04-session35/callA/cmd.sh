#!/usr/bin/env bash
# Call A: the ThomasVBatch device map (hinesbatch_solver_map --map-families=thomasv: padded
# storage computing the padding (cp) or not (ncp), Flat and Full-Interleaved, and packed
# storage; sizes uniform in [m_max/2, m_max] (half) or [1, m_max] (full); m_max 4-100,000;
# 2^20-2^28 real rows; every schedule and Auto), then the mixed real cells at 1,000 and
# 6,400 cells, every multi-morphology path, and the mix's own trees each alone.
# .devcarry/binA.txz: hinesbatch_solver_map, hinesbatch_perf_tests, hinesbatch-export-cells.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; P=$OUT/perf; mkdir -p $M $P
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binA/hinesbatch_solver_map
for l in Flat FullInterleaved; do
  timeout 210 $MAP --map-families=thomasv --map-backends=device \
    --benchmark_filter="^ThomasV/Device/$l/" \
    --benchmark_out=$M/map_device_$l.json --benchmark_out_format=json > $M/map_device_$l.txt 2>&1
  stamp "thomasv $l device map rc=$? $(grep -c '^ThomasV' $M/map_device_$l.txt) points, $(grep -c ERROR $M/map_device_$l.txt) error lines"
done
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
B=$c/binA/hinesbatch_perf_tests
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $B --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
bench mixed1000 90 '^Multi/(RealMixed|RealCable)/1000/'
bench mixed6400 110 '^Multi/(RealMixed|RealCable)/6400/'
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
