#!/usr/bin/env bash
# Session 47's call A. binS47 is the on-chip sweep in step (Full-Interleaved ThomasVBatch not
# computing the padding, on GPUs: every lane of a warp steps through the same rows and loads
# only its own); binS47main is main's solver_map before it (c5b2268).
# 1. That storage's map at m_max 4-129 (where the on-chip schedule runs): PerSystemOnChip,
#    PerSystem, WarpPerSystem and Auto, A-B-B-A (main, in step, in step, main).
# 2. Nsight Compute where the solver map's misses were named but not profiled, Auto's
#    kernels, Occupancy/launch/warp-state/memory sections and DRAM bytes:
#    a. ThomasVBatch Full-Interleaved m_max = 64 at 2^26: cp and ncp (both builds);
#    b. Hines Flat at 2^26 on trees of 941-30,000 nodes (the staged schedule, one thread per
#       tree on the star);
#    c. the grouped mixed batch of real cells (perf_tests Multi/RealMixed Grouped) at 25,600
#       and 256,000 cells: every group's kernel.
# 3. The host's tridiagonal tiles (Full-Interleaved and Flat) past the core's L2: SimdTiles at 2^24 rows,
#    m = 250-16,000, 16 threads, and the machine's caches (lscpu).
# Carry: .devcarry/binS47.txz, binS47.txt, binS47main.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS47 binS47main; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; N=$OUT/ncu; H=$OUT/host; mkdir -p $M $N $H
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS47.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run_map() {  # name binary
  timeout 45 $c/$2/hinesbatch_solver_map --map-families=thomasv --map-backends=device --map-vrows=4,16,31,64,100,129 \
    --benchmark_filter='^ThomasV/Device/FullInterleaved/(Auto|PerSystem|PerSystemOnChip|WarpPerSystem)/ncp-' \
    --benchmark_out=$M/map_$1.json --benchmark_out_format=json > $M/map_$1.txt 2>&1
  stamp "map $1 rc=$? $(grep -c '^ThomasV' $M/map_$1.txt) points, $(grep -c ERROR $M/map_$1.txt) error lines"
}
run_map before_a binS47main
run_map after_a binS47
run_map after_b binS47
run_map before_b binS47main
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)

NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
prof() {  # name kernel-regex launch-count command...
  local name=$1 kre=$2 count=$3; shift 3
  timeout 60 $NCU --csv --page details --print-units base --kernel-name-base demangled \
    --kernel-name "regex:$kre" --launch-count $count --log-file $N/ncu_$name.csv \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    "$@" > $N/run_$name.txt 2>&1
  stamp "ncu $name rc=$? $(grep -c '"' $N/ncu_$name.csv) csv lines; $(grep -o '[0-9.]* ms .*nodes_per_s=[0-9.]*G\|items_per_second=[0-9.]*G' $N/run_$name.txt | head -1)"
}
VMAP=(--map-families=thomasv --map-backends=device --map-totals=26 --map-vrows=64 --map-reps=1)
for p in ncp-half ncp-full cp-full; do
  for b in binS47 binS47main; do
    prof "v64_${p}_$b" 'Thomas(PerSystem|Team|TwoPass|Warp|Packed)' 2 $c/$b/hinesbatch_solver_map "${VMAP[@]}" \
      --benchmark_filter="^ThomasV/Device/FullInterleaved/Auto/$p/m:64/total:26/"
  done
done
for t in 'real-951118a/n:1348' 'real-10-2012-02-09-001/n:3187' 'random/n:3000' 'random/n:10000' 'random/n:30000' 'chain/n:10000' 'star/n:1000'; do
  k=$(echo "$t" | tr '/:' '__')
  prof "flat_$k" 'hinesbatch::impl::' 2 $c/binS47/hinesbatch_solver_map --map-families=hines --map-backends=device \
    --map-totals=26 --map-trees=all --map-reps=1 --benchmark_filter="^Hines/Device/Flat/Auto/$t/total:26/"
done
for n in 25600 256000; do
  prof "mixed_$n" 'hinesbatch::impl::' 30 $c/binS47/hinesbatch_perf_tests \
    --benchmark_filter="^Multi/RealMixed/$n/Grouped/" --benchmark_min_time=0
done
xz -9 $N/*; (cd $OUT && tar cf ncu.tar ncu && rm -rf ncu)

lscpu > $H/lscpu.txt 2>&1; lscpu --caches >> $H/lscpu.txt 2>&1; command -v perf >> $H/lscpu.txt
for run in a b; do
  OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads timeout 60 $c/binS47/hinesbatch_solver_map \
    --map-families=thomas --map-backends=host --map-host-totals=24 \
    --map-rows=250,500,750,1000,1250,1500,1750,2000,2250,2500,3000,4000,6000,8000,16000 \
    --benchmark_filter='^Thomas/Host/(Flat|FullInterleaved)/SimdTiles/' \
    --benchmark_out=$H/knee_$run.json --benchmark_out_format=json > $H/knee_$run.txt 2>&1
  stamp "host knee $run rc=$? $(grep -c SimdTiles $H/knee_$run.txt) points"
done
xz -9 $H/*.json; (cd $OUT && tar cf host.tar host && rm -rf host)
stamp done
