# Where the batched on-chip kernel waits: ncu source counters, small-low 256,000 fp64 (third launch).
D=$OUT; R=/tmp/i5; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 200 $ncu --section SourceCounters --section WarpStateStats --section Occupancy --section SpeedOfLight --section LaunchStats --section SchedulerStats --section MemoryWorkloadAnalysis --kernel-name-base demangled -k regex:SolvePerSystemOnChip -c 1 -o $R/oc $B/hinesbatch_perf_tests --benchmark_filter='^Mono/OnChipFullInterleaved/small-low/256000/' --benchmark_min_time=0 > $R/log.txt 2>&1
echo "rc=$?"
$ncu -i $R/oc.ncu-rep --page source --print-source sass --csv > $R/sass.csv 2>$R/sass.err; echo "src rc=$? $(wc -l < $R/sass.csv)"
$ncu -i $R/oc.ncu-rep --page details > $R/details.txt 2>&1
grep -E "dram__bytes|DRAM Throughput|Stall|Warp Cycles|Issued|Eligible|Active Warps|Theoretical|Block Limit|Registers|Shared Memory Config|Dynamic Shared|Driver Shared|Memory Throughput|DRAM Throughput|Duration|L1/TEX Hit|L2 Hit" $R/details.txt | head -60
gzip -9f $R/sass.csv
tar czf $D/i5.tgz -C $R log.txt sass.csv.gz sass.err details.txt
