#!/usr/bin/env bash
# Call F (call D's binaries): Nsight Compute on TeamPerSystemInMemory, one solve of m = 20,000
# and m = 100,000 rows at 2^26 rows in the batch, Flat storage, fp64: what binds it.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binD.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
mkdir -p $OUT/f; ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for m in 20000 100000; do
  timeout 200 $ncu --kernel-name-base demangled -k regex:ThomasTeamInMemory -c 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum \
    $c/bin/hinesbatch_solver_map --map-backends=device --map-families=thomas --map-rows=$m --map-totals=26 \
    --benchmark_filter="Thomas/Device/Flat/TeamPerSystemInMemory/m:$m/" > $OUT/f/ncu_in_memory_$m.txt 2>&1
  echo "m=$m rc=$? $(grep -E 'Duration|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Block Size|Grid Size|DRAM Throughput|dram__bytes_(read|write).sum |L2 Hit Rate|Issue Slots Busy|Warp Cycles Per Issued|Block Limit (Registers|Shared Mem|SM|Warps)' $OUT/f/ncu_in_memory_$m.txt | tr -s ' ' | tr '\n' ';')"
done
cd $OUT && tar czf f.tgz f && rm -rf f
