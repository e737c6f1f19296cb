#!/usr/bin/env bash
# Call A: the CUDA tests of what changed (warp Thomas shapes of six rows per lane; lane plans
# waiting for the first warp alone near the root), the simulator before/after on the real-cell
# targets and P3 (same rasters?), the solver map on the device, the old binary's Thomas rows
# where the shapes changed, the peers at the map's points. Each step archives its own files.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; mkdir -p $OUT/t $OUT/sim $OUT/map
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
OMP_NUM_THREADS=8 timeout 150 $c/bin/hinesbatch_unit_tests --gtest_brief=1 \
  --gtest_filter='*Thomas*:*CellLane*:*Packed*:*MultiMorph*:*OnChip*:*RealCell*' > $OUT/t/tests.txt 2>&1
stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/t/tests.txt | tr '\n' ' ')"
(cd $OUT && tar czf tests.tgz t)
run() { local bin=$1 name=$2; shift 2
  timeout 100 $c/bin/$bin "$@" --quiet --set 'output={}' --metrics $OUT/sim/$name.json --spikes $OUT/sim/$name.spk > $OUT/sim/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$OUT/sim/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $OUT/sim/$name.spk | cut -c1-32)"; }
moto="cell.morphology=\"\${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc\""
for v in hinesbatch-sim hinesbatch-sim-base; do
  run $v mixed20000_$v examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
  run $v moto2000_$v examples/sim/real_large.json --set "$moto" --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
  run $v moto200_$v examples/sim/real_large.json --set "$moto" --set network.cells=200 --set network.kick.cells=10 --set tstop=50
  run $v large2000_$v examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
done
run hinesbatch-sim p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
(cd $OUT && tar czf sim.tgz sim)
OUT=$OUT/map timeout 270 bash scripts/gpu/solver-map.sh device; stamp "map device rc=$?"
timeout 40 $c/bin/hinesbatch_solver_map_base --map-backends=device --map-families=thomas \
  --map-rows=129,160,192,193,255,256,257,300,384,385,511,512,513,700,1000,1025,1536,2000,3000,5000,6145 \
  --map-totals=22,26 --benchmark_filter='/Flat/(Auto|WarpPerSystem)/' \
  --benchmark_out=$OUT/map/map_device_base.json --benchmark_out_format=json > $OUT/map/map_device_base.txt 2>&1
stamp "map base rc=$?"
(cd $OUT && tar czf map.tgz map)
OUT=$OUT/map timeout 150 bash scripts/gpu/solver-map.sh peers; stamp "peers rc=$?"
(cd $OUT && tar czf map.tgz map && rm -rf map sim t)
