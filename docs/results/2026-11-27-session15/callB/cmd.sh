#!/usr/bin/env bash
# Call B (binB.txz): the on-chip kernel's generated passes, four builds alternating, rasters
# by md5. bin/ = main (d9aaa3c); exp/ = synapse passes dispatched once per pass (E1);
# exp2/ = E1 and the generated blocks' phase a template argument (E3); exp3/ = E1, E3 and
# the slot's template read once per epoch (E2). P3 100,000 cells (three rounds), busyring
# 10,000, ringtest 65,536 (two rounds); memcheck of exp2 on chip.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
BR="examples/sim/ring.json --set network.cells=10000"
RT="examples/sim/ringtest.json --set network.cells=65536"
for k in 1 2 3; do
  for v in bin exp exp2 exp3; do run p3_${v}_$k $c/binB/$v/hinesbatch-sim $P3; done
done
for k in 1 2; do
  for v in bin exp exp2 exp3; do run busyring_${v}_$k $c/binB/$v/hinesbatch-sim $BR; done
  for v in bin exp exp2 exp3; do run ringtest_${v}_$k $c/binB/$v/hinesbatch-sim $RT; done
done
timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $c/binB/exp2/hinesbatch-sim examples/sim/p3_synaptic.json \
  --set network.cells=200 --set network.kick.cells=20 --set tstop=5 --on-chip on --quiet --set 'output={}' > $L/memcheck_p3_exp2.txt 2>&1
stamp "memcheck p3 exp2 rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_p3_exp2.txt)"
rm -f $L/*.spk
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
