#!/usr/bin/env bash
# Call A: the lane plans' waits per warp. One build; the plans it makes chosen by two
# environment variables read only in this call's build (removed before landing):
# T = every wait of the whole team and no cut by warp (HB_ALL_TEAM_WAITS=1 HB_NO_WARP_CUT=1:
# the waits of the build before, except the first warp's own at the levels near the root),
# W = waits per warp where the plan allows them, no cut by warp (HB_NO_WARP_CUT=1),
# F = both (the landed plans). 1) hinesbatch-sim on the real-cell networks, T W F twice in
# turn, same rasters; P3 once with F; 2) BlockPerSystem and Auto over the shared SWC trees
# and random trees (hinesbatch_solver_map), T and F; 3) the multi-morphology paths that use
# lane plans at 6,400 and 25,600 cells, T and F.
# .devcarry/binA.txz. Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/sim; M=$OUT/map; P=$OUT/perf; mkdir -p $T $M $P
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
variant() {  # T|W|F -> env
  case $1 in T) echo "HB_ALL_TEAM_WAITS=1 HB_NO_WARP_CUT=1" ;; W) echo "HB_NO_WARP_CUT=1" ;; F) echo "HB_NONE=1" ;; esac
}
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
nets=("MX20 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
      "MX2 examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50"
      "LG2000 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50"
      "LG200 examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50"
      "MO200 examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50")
for rep in 1 2; do
  for net in "${nets[@]}"; do
    for v in T W F; do
      set -- $net; name=$1; shift
      f=$T/$name-$v-$rep
      env $(variant $v) timeout 60 $c/binA/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $f.json --spikes $f.spk > $f.log 2>&1
      stamp "$name $v $rep rc=$? $(python3 -c "import json; m=json.load(open('$f.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule_detail','')[:200])" 2>/dev/null) $(md5sum < $f.spk | cut -c1-8)"
    done
  done
done
f=$T/P3-F-1
timeout 60 $c/binA/hinesbatch-sim examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 \
  --quiet --set 'output={}' --metrics $f.json --spikes $f.spk > $f.log 2>&1
stamp "P3 F rc=$? $(python3 -c "import json; m=json.load(open('$f.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $f.spk | cut -c1-8)"
rm -f $T/*.spk
for v in T F; do
  env $(variant $v) timeout 150 $c/binA/hinesbatch_solver_map --map-backends=device --map-families=hines --map-trees=real,random,compartments \
    --map-totals=20,22,24,26 --benchmark_filter='/(Auto|BlockPerSystem)/' --map-reps=3 \
    --benchmark_out=$M/map-$v.json --benchmark_out_format=json > $M/map-$v.txt 2>&1
  stamp "map $v rc=$? $(grep -c floor_frac $M/map-$v.txt) points"
done
for v in T F; do
  env $(variant $v) timeout 100 $c/binA/hinesbatch_perf_tests --benchmark_filter='^Multi/(RealMixed|RealCable)/(6400|25600)/(Grouped|GroupedFlat|PackedLanes|GroupedOwnAuto)/' \
    --benchmark_min_time=0.05 --benchmark_out=$P/multi-$v.json --benchmark_out_format=json > $P/multi-$v.txt 2>&1
  stamp "multi $v rc=$?"
  grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/multi-$v.txt | sed -E "s/ .*nodes_per_s=/ $v /" | tee -a $S
done
(cd $OUT && tar cJf sim.tar.xz sim && rm -rf sim && tar cJf map.tar.xz map && rm -rf map && tar cJf perf.tar.xz perf && rm -rf perf)
stamp done
