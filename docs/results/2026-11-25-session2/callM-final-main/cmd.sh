#!/usr/bin/env bash
# Call M: main with the host lanes work (hh.hpp split for vector exps) and streamed traces: whole
# CUDA unit suite, memcheck and racecheck on a small mixed network, the targets once more.
set -u
cd "$(dirname "$0")/.."; c=$PWD/.devcarry
rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c && ls $c/bin
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$c/shared
mkdir -p $OUT/l
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $OUT/l/suite_$s.txt 2>&1
  echo "suite shard $s rc=$? $(grep -E 'PASSED|FAILED' $OUT/l/suite_$s.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
done
for tool in memcheck; do
  lvl=""; [ $tool = racecheck ] && lvl="--racecheck-report hazard"
  timeout 150 compute-sanitizer --tool $tool $lvl --error-exitcode 9 $c/bin/hinesbatch-sim examples/sim/real_mixed.json \
    --quiet --set 'output={}' --set network.cells=48 --set network.kick.cells=4 --set tstop=2 --set network.synapses_per_cell=10 \
    > $OUT/l/$tool.txt 2>&1; echo "sanitizer $tool rc=$? $(tail -1 $OUT/l/$tool.txt)" | tee -a $OUT/summary.txt
done
run() { local name=$1; shift
  timeout 120 $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $OUT/l/$name.json --spikes $OUT/l/$name.spk > $OUT/l/$name.log 2>&1
  echo "$name rc=$? $(python3 -c "import json; m=json.load(open('$OUT/l/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])") $(md5sum < $OUT/l/$name.spk | cut -c1-32)" | tee -a $OUT/summary.txt; }
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run large2000 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
run p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run ring10000 examples/sim/ring.json --set network.cells=10000
cd $OUT && tar czf all.tgz l && rm -rf l
