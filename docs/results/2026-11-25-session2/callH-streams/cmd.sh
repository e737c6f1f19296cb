#!/usr/bin/env bash
# Call H: streams for the on-chip launches; whole CUDA suite; sanitizers; A/B against 29da73e.
set -u
cd "$(dirname "$0")/.." ; c=$PWD/.devcarry
tar xzf $c/bin.tgz -C $c && ls $c/bin
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$c/shared
nvidia-smi --query-gpu=name,driver_version --format=csv | tee $OUT/gpu.txt
mkdir -p $OUT/ab $OUT/san
ab() {  # name config args...
  local name=$1 cfg=$2; shift 2
  for r in 1 2; do for b in old new; do
    local sim=$c/bin/hinesbatch-sim; [ $b = old ] && sim=$c/bin/hinesbatch-sim-29da73e
    timeout 120 $sim examples/sim/$cfg --quiet --set 'output={}' --metrics $OUT/ab/${name}_${b}_$r.json \
      --spikes /tmp/${name}_${b}_$r.txt "$@" > $OUT/ab/${name}_${b}_$r.log 2>&1
    echo "$name $b $r rc=$? $(python3 -c "import json,sys; m=json.load(open('$OUT/ab/${name}_${b}_$r.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule_detail',''))" 2>&1)" | tee -a $OUT/ab/summary.txt
    md5sum /tmp/${name}_${b}_$r.txt | cut -c1-32 >> $OUT/ab/${name}.md5
  done; done
  sort -u $OUT/ab/${name}.md5 | wc -l | sed "s/^/$name distinct rasters: /" | tee -a $OUT/ab/summary.txt
}
ab mixed20000 real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
ab mixed2000 real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
ab large2000 real_large.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
ab p3syn100000 p3_synaptic.json --set network.cells=100000 --set tstop=100
# sanitizers on a small mixed network (several launches on streams)
for tool in memcheck racecheck synccheck; do
  lvl=""; [ $tool = racecheck ] && lvl="--racecheck-report all"
  timeout 200 compute-sanitizer --tool $tool $lvl --error-exitcode 9 $c/bin/hinesbatch-sim examples/sim/real_mixed.json \
    --quiet --set 'output={}' --set network.cells=48 --set network.kick.cells=4 --set tstop=2 --set network.synapses_per_cell=10 \
    > $OUT/san/$tool.txt 2>&1; echo "sanitizer $tool rc=$? $(tail -1 $OUT/san/$tool.txt)" | tee -a $OUT/san/summary.txt
done
# whole CUDA suite, two shards
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $OUT/suite_$s.txt 2>&1
  echo "suite shard $s rc=$? $(grep -E 'PASSED|FAILED' $OUT/suite_$s.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
done
# what binds the big cells' kernels: ncu on one epoch launch of each
mkdir -p $OUT/ncu
timeout 240 ncu --kernel-name regex:sim_epoch_on_chip --launch-count 1 --set full --page details \
  $c/bin/hinesbatch-sim examples/sim/real_large.json --quiet --set 'output={}' --set network.cells=2000 --set network.kick.cells=100 --set tstop=2 \
  > $OUT/ncu/large2000.txt 2>&1; echo "ncu large rc=$?" | tee -a $OUT/summary.txt
timeout 240 ncu --kernel-name regex:sim_epoch_on_chip --launch-count 4 --set full --page details \
  $c/bin/hinesbatch-sim examples/sim/real_mixed.json --quiet --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=2 \
  > $OUT/ncu/mixed20000.txt 2>&1; echo "ncu mixed rc=$?" | tee -a $OUT/summary.txt
