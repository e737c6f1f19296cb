#!/usr/bin/env bash
# Call A3: the flag waits sleeping (__nanosleep) instead of spinning, against level barriers
# (same binary); the warp-per-cell networks and the mixed one with last session's final
# binary (old/) in the same call.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin $c/old && tar xzf $c/bin_sleep.tgz -C $c && tar xzf $c/old.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary3.txt; L=$OUT/a3; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu3.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local bin=$1 name=$2; shift 2
  timeout 120 $bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
E=examples/sim
moto="--set cell.morphology=\"\${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc\""
bar="--set run.on_chip_sync=\"barriers\""
for rep in 1 2; do
  for sync in flags barriers; do
    x=""; [ $sync = barriers ] && x=$bar
    run $c/bin/hinesbatch-sim mixed20000_${sync}_$rep $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50 $x
    run $c/bin/hinesbatch-sim large2000_${sync}_$rep $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50 $x
    run $c/bin/hinesbatch-sim moto2000_${sync}_$rep $E/real_large.json --set 'output={}' $moto $(cells 2000) --set tstop=50 $x
  done
  for b in bin old; do
    run $c/$b/hinesbatch-sim p3syn100000_${b}_$rep $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
    run $c/$b/hinesbatch-sim ring10000_${b}_$rep $E/ring.json --set 'output={}' --set network.cells=10000
  done
  run $c/old/hinesbatch-sim mixed20000_old_$rep $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50
done
(cd $OUT && rm -f $L/*.spk && tar czf a3.tgz a3 && rm -rf a3)
