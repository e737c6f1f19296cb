# SASS-level counters of the final Hines warp kernel (small-low, lanes 4): shared-memory instructions, multiply-shift divisions.
D=$OUT; R=/tmp/h9; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 200 $ncu --section SourceCounters --section WarpStateStats --section Occupancy --section SpeedOfLight --section LaunchStats --section SchedulerStats --kernel-name-base demangled -k regex:SolveWarpPerSystem -c 1 -o $R/sl4 .devcarry/bin/hinesbatch_perf_tests --benchmark_filter='MonoLanes/WarpFlat/small-low/256000/.*/4/manual' --benchmark_min_time=0 > $R/log.txt 2>&1
echo "rc=$?"
$ncu -i $R/sl4.ncu-rep --page source --print-source sass --csv > $R/sass.csv 2>$R/sass.err; echo "src rc=$? $(wc -l < $R/sass.csv)"
$ncu -i $R/sl4.ncu-rep --page details > $R/details.txt 2>&1
gzip -9 $R/sass.csv
tar czf $D/h9.tgz -C $R log.txt sass.csv.gz sass.err details.txt
