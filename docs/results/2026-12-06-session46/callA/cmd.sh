#!/usr/bin/env bash
# Session 46's call A: session 45's next call without the unit suite (it runs on main's head
# in a later call). binS46 is main with
# the host's huge-page advice (76b886b); binS45map is binS45's solver_map (0d4452e, before it).
# 2. The split schedule in Flat storage: the Flat Hines map with Split and Split@2-16 beside
#    Auto and the schedules it chooses among (Flat trees of 700-5,000 nodes run at 0.06-0.23
#    of the floor; Split has only been mapped in Full-Interleaved storage).
# 3. What binds ThomasVBatch past the on-chip sizes (the map's row says "not profiled"):
#    Nsight Compute on Auto's solve at m_max = 300, sizes in [150, 300], 2^26 padded rows,
#    Full-Interleaved computing the padding (cp) and not (ncp), and packed storage.
# 4. The host's huge pages on the 16 cores: the host map (Full-Interleaved, the dev machine's
#    A-B-B-A points) with binS45map and binS46 in the order 45, 46, 46, 45, and the machine's
#    transparent-huge-page setting.
# Carry: .devcarry/binS46.txz, binS46.txt, binS45map.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS46 binS45map; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; N=$OUT/ncu; mkdir -p $M $N
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS46.txt | tee -a $S
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
H=$OUT/host; mkdir -p $H
HF='^(Hines/Host/FullInterleaved/SimdTiles/(real-|class-|random)|Thomas/Host/FullInterleaved/SimdTiles/m:(300|1000|3000|10000|100000)/|Hines/Host/Flat/SimdTiles/(real-10-2012|real-HSN|random))'
for run in S45a S46a S46b S45b; do
  b=binS45map; [ ${run:0:3} = S46 ] && b=binS46
  OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads timeout 40 $c/$b/hinesbatch_solver_map \
    --map-families=hines,thomas --map-backends=host --map-host-totals=24 --map-trees=all \
    --map-rows=300,1000,3000,10000,100000 --benchmark_filter="$HF" \
    --benchmark_out=$H/$run.json --benchmark_out_format=json > $H/$run.txt 2>&1
  stamp "host $run rc=$? $(grep -c SimdTiles $H/$run.txt) points; $(grep AnonHugePages /proc/meminfo)"
done
xz -9 $H/*; (cd $OUT && tar cf host.tar host && rm -rf host)
timeout 150 $c/binS46/hinesbatch_solver_map --map-families=hines --map-backends=device --map-totals=20,22,24,26 \
  --map-trees=all --map-split-lanes=2,4,8,16 \
  --benchmark_filter='^Hines/Device/Flat/(Auto|PerSystem|PerSystemOnChip|PerSystemStaged|BlockPerSystem|TeamPerSystem|WarpPerSystem|Split)(@[0-9]+)?/' \
  --benchmark_out=$M/map_flat.json --benchmark_out_format=json > $M/map_flat.txt 2>&1
stamp "flat map rc=$? $(grep -c '^Hines' $M/map_flat.txt) points, $(grep -c ERROR $M/map_flat.txt) error lines"
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
k=0
for p in FullInterleaved/Auto/cp-half FullInterleaved/Auto/ncp-half Flat/Auto/packed-half; do
  k=$((k + 1))
  timeout 45 $NCU --csv --print-units base --kernel-name-base demangled \
    --kernel-name "regex:Thomas(PerSystem|Team|TwoPass|Warp|Packed)" --launch-count 2 --log-file $N/ncu_$k.csv \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__thread_inst_executed_per_inst_executed.ratio,launch__registers_per_thread,launch__grid_size,launch__block_size \
    $c/binS46/hinesbatch_solver_map --map-families=thomasv --map-backends=device --map-totals=26 \
    --map-vrows=300 --map-vspreads=half --map-reps=1 \
    --benchmark_filter="^ThomasV/Device/$p/m:300/total:26/" > $N/run_$k.txt 2>&1
  stamp "ncu $p rc=$? $(grep -o 'ThomasV/[^ ]*manual_time.*' $N/run_$k.txt | head -1 | cut -c1-300)"
done
xz -9 $N/*; (cd $OUT && tar cf ncu.tar ncu && rm -rf ncu)
stamp done
