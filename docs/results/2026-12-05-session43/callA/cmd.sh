#!/usr/bin/env bash
# Call A (run on one H100 in four parts, checks, perf, map, ncu, on one machine): the branch split-schedule on a GPU (HinesSchedule::Split; the split
# sweeps' loads a row ahead with the written parent forwarded, indices two rows ahead,
# rows four ahead into L2; one lane two warps' systems a team). Three calls, each under
# the 600-s limit, on one machine back to back:
#   cmd.sh checks  the whole CUDA unit suite in six shards, then compute-sanitizer
#                  (memcheck, racecheck) on the Split tests of the double Full-Interleaved
#                  CUDA configuration and the grouped batch's;
#   cmd.sh perf    the mixed batches before (main's split kernel: binB42's perf tests,
#                  e9ba954 with the split schedule as it landed) and after (the branch),
#                  alternating; then both with CUDA_DEVICE_MAX_CONNECTIONS=32 (the groups'
#                  streams past CUDA's default 8 hardware queues share them);
#   cmd.sh map     the solver map's Full-Interleaved Hines part at 2^20-2^26 with Split
#                  beside PerSystem, PerSystemStaged, BlockPerSystem and Auto (Auto's table:
#                  scripts/solver_map.py MAPDIR --emit-auto-tables src/solvers --admit Split);
#   cmd.sh ncu     Nsight Compute (full set) on the split kernel and on Auto's kernel for the
#                  3,187-node tree at 2^24 and 2^22 nodes and the 998-node tree at 2^24: what
#                  binds the split schedule (occupancy, stalls, DRAM), in the time left.
# Binaries (not in git): .devcarry/binS43.txz (hinesbatch_unit_tests, hinesbatch_perf_tests,
# hinesbatch_solver_map of the branch, cuda-h100 preset; binS43.txt names the commit) and
# .devcarry/binB42p.txz (binB42's hinesbatch_perf_tests alone).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS43 binB42p; do
  [ -d $c/$b ] || { mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; }
done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; P=$OUT/perf; M=$OUT/map; mkdir -p $U $P $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS43.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binS43/hinesbatch_unit_tests
case ${1:-checks} in
checks)
  for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 330 $B > $U/unit_$i.log 2>&1 & done; wait
  stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') skipped $(cat $U/unit_*.log | grep -c '^\[  SKIPPED \] [A-Z]') of $($B --gtest_list_tests | grep -c '^  ')"
  grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
  CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    timeout 100 $CS --tool $tool $B --gtest_filter='HinesBatchSolve/15.Split*:GroupedMultiBatch.SplitLanes' > $U/san_$tool.log 2>&1
    stamp "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/san_$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $U/san_$tool.log | tr '\n' ' ')"
  done
  (cd $OUT && tar cJf u.tar.xz u && rm -rf u) ;;
perf)
  bench() {  # binary name timeout filter
    OMP_NUM_THREADS=16 timeout $3 $c/$1/hinesbatch_perf_tests --benchmark_filter="$4" --benchmark_min_time=0.05 \
      --benchmark_out=$P/$2.json --benchmark_out_format=json > $P/$2.txt 2>&1
    stamp "$2 rc=$? $(grep -c manual_time $P/$2.txt) results, $(grep -c ERROR $P/$2.txt) errors"
  }
  # GroupedSplit16 and GroupedUpTo16 exist in the branch's binary only.
  F='^Multi/RealMixed/(6400|25600)/(GroupedSplit8|GroupedSplit16|GroupedUpTo16|Grouped)/|^Multi/RealMixed/102400/(GroupedSplit4|GroupedUpTo16|Grouped)/|^Multi/RealCable/25600/(Grouped|GroupedUpTo16)/'
  Fs='^Multi/RealMixed/(6400|25600)/(GroupedSplit8|Grouped)/|^Multi/RealCable/25600/Grouped/'
  bench binB42p before1 150 "$F"
  bench binS43 after1 150 "$F"
  bench binB42p before2 60 "$Fs"
  bench binS43 after2 60 "$Fs"
  # The groups' streams past the 8 hardware queues CUDA gives by default share queues.
  export CUDA_DEVICE_MAX_CONNECTIONS=32
  bench binS43 after_conn32 60 "$Fs"
  bench binB42p before_conn32 $((570 - SECONDS)) "$Fs"
  unset CUDA_DEVICE_MAX_CONNECTIONS
  for f in before1 after1 before2 after2 after_conn32 before_conn32; do
    grep -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/$f.txt | sed -E "s/ .*nodes_per_s=/ /; s/^/$f /"
  done | tee -a $S
  xz -9 $P/*; (cd $OUT && tar cf perf.tar perf && rm -rf perf) ;;
map)
  # 2^20-2^24 first (the batches too small for one thread per tree, where Split should
  # win), then 2^26 in the time left; a run cut by its limit keeps the points it printed.
  for part in 20,22,24:380 26:$((565 - 380)); do
    t=${part%%:*}; lim=${part##*:}; [ $((SECONDS + 30)) -gt 565 ] && break
    timeout $((lim < 565 - SECONDS ? lim : 565 - SECONDS)) $c/binS43/hinesbatch_solver_map --map-families=hines \
      --map-backends=device --map-totals=$t --map-trees=all \
      --benchmark_filter='^Hines/Device/FullInterleaved/(Auto|PerSystem|PerSystemStaged|BlockPerSystem|Split)/' \
      --benchmark_out=$M/map_fi_${t//,/_}.json --benchmark_out_format=json > $M/map_fi_${t//,/_}.txt 2>&1
    stamp "map $t rc=$? $(grep -c '^Hines' $M/map_fi_${t//,/_}.txt) points, $(grep -c ERROR $M/map_fi_${t//,/_}.txt) error lines"
  done
  xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map) ;;
ncu)
  # In order of interest; none started past 480 s.
  N=$OUT/ncu; mkdir -p $N
  for job in Split:10-2012-02-09-001/n:3187/total:24 Auto:10-2012-02-09-001/n:3187/total:24 \
             Split:10-2012-02-09-001/n:3187/total:22 Split:HSN-fluoro02/n:998/total:24 \
             Auto:HSN-fluoro02/n:998/total:24 Auto:10-2012-02-09-001/n:3187/total:22; do
    [ $SECONDS -gt 480 ] && break
    sched=${job%%:*}; pt=${job#*:}
    tag=$(echo "${sched}_$pt" | tr '/:' '__')
    timeout 90 ncu --set full --kernel-name-base mangled -k 'regex:Solve[A-Za-z]*PerSystem' -c 1 -o $N/$tag \
      $c/binS43/hinesbatch_solver_map --map-families=hines --map-backends=device --map-trees=real \
      --map-totals=${pt##*:} --benchmark_filter="^Hines/Device/FullInterleaved/$sched/real-$pt/" > $N/$tag.txt 2>&1
    stamp "ncu $tag rc=$?"
    ncu --import $N/$tag.ncu-rep --page details > $N/$tag.details.txt 2>&1
  done
  (cd $OUT && tar cJf ncu.tar.xz ncu && rm -rf ncu) ;;
esac
stamp done
