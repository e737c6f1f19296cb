# Why the Hines warp schedule is slow: ncu sections of one launch (small-low lanes 4, medium-high lanes 8), and the TeamFlat kernel beside.
D=$OUT; R=/tmp/h2; mkdir -p $R
[ -x .devcarry/bin/hinesbatch_perf_tests ] || tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
S="--section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section SpeedOfLight --section SourceCounters"
for spec in 'MonoLanes/WarpFlat/small-low/256000/.*/4/manual:SolveWarpPerSystem:sl4' 'MonoLanes/WarpFlat/medium-high/256000/.*/8/manual:SolveWarpPerSystem:mh8'; do
  f=${spec%%:*}; rest=${spec#*:}; k=${rest%%:*}; tag=${rest#*:}
  timeout 120 $ncu $S --kernel-name-base demangled -k regex:$k -c 1 .devcarry/bin/hinesbatch_perf_tests --benchmark_filter="$f" --benchmark_min_time=0 > $R/ncu_$tag.txt 2>&1
  echo "$tag rc=$?"
done
tar czf $D/h2.tgz -C $R .
# SASS-level counters of the Hines warp kernel (small-low, lanes 4).
D=$OUT; R=/tmp/h3; mkdir -p $R
[ -x .devcarry/bin/hinesbatch_perf_tests ] || tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 200 $ncu --section SourceCounters --section WarpStateStats --kernel-name-base demangled -k regex:SolveWarpPerSystem -c 1 -o $R/sl4 .devcarry/bin/hinesbatch_perf_tests --benchmark_filter='MonoLanes/WarpFlat/small-low/256000/.*/4/manual' --benchmark_min_time=0 > $R/log.txt 2>&1
echo "rc=$?"
$ncu -i $R/sl4.ncu-rep --page source --print-source sass --csv > $R/sass.csv 2>$R/sass.err; echo "src rc=$? $(wc -l < $R/sass.csv)"
gzip -9 $R/sass.csv
tar czf $D/h3.tgz -C $R log.txt sass.csv.gz sass.err
