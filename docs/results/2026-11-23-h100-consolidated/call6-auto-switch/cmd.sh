# Call 6 (2026-11-23 night, issue #9): part 2 of call 4. Where Auto switches Full-Interleaved tridiagonal systems of 256 / 512 rows from the warp schedule to P2's kernel (ThomasAutoSwitch, 64,000-192,000 systems, fp64); ThomasBatch Auto against P2 and the warp schedule at 25,600 systems for m = 256 / 512 (fp64, fp32); m = 8,192 at 20,000; Fig. 6 branch50's PackedLanes (cut in call 3); RealMixed 256,000 with P2's LevelLaunches.
D=$OUT; R=/tmp/r6; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
export OMP_PROC_BIND=spread OMP_PLACES=threads HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
run() { local name=$1 lim=$2 re=$3; timeout $lim $B/hinesbatch_perf_tests --benchmark_filter="$re" --benchmark_min_time=0.05 --benchmark_out=$R/perf_$name.json --benchmark_out_format=json > $R/perf_$name.txt 2>&1; echo "$name rc=$?" | tee -a $R/run.log; tar czf $D/r6.tgz -C $R .; }
run auto25600 90 '^ThomasBatch/(FullInterleaved|AutoFullInterleaved|WarpFullInterleaved)/f(64|32)/(256|512)/25600(/manual_time)?$'
run switch 200 '^ThomasAutoSwitch/.*/f64/'
run m8192 50 '^ThomasBatch/(FullInterleaved|AutoFlat|AutoFullInterleaved)/f64/8192/20000(/manual_time)?$'
run fig6 60 '^Multi/Fig6/branch50/25600/PackedLanes(/manual_time)?$'
run level256000 100 '^Multi/RealMixed/256000/LevelLaunches(/manual_time)?$'
grep -h manual_time $R/perf_*.txt | awk '{n="";for(i=1;i<=NF;i++) if($i ~ /^(nodes_per_s|rows_per_s)=/) n=$i; print $1, n, $NF}'
