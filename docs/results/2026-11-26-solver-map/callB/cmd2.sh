#!/usr/bin/env bash
# Call B2: Auto again at every device point of the map (now from the map's table), the host
# map, cuHinesBatch on the map's trees, ncu on four points Auto leaves far from the floor,
# and the host backend's 16 threads against one on the mixed real-cell network.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -d $c/bin ] || { mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary2.txt; M=$OUT/map; mkdir -p $M $OUT/ncu $OUT/host
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
map=$c/bin/hinesbatch_solver_map
timeout 150 $map --map-backends=device --benchmark_filter='/Auto/' --benchmark_out=$M/map_device_auto.json \
  --benchmark_out_format=json > $M/map_device_auto.txt 2>&1; stamp "map device Auto rc=$?"
$map --map-export=$M/map_trees.bin > $M/map_trees.txt
timeout 80 $c/peers/hines_peers --classes $M/map_trees.bin --totals 22,24,26 --type f64 --repeat 5 \
  --out $M/hines_peers_map.json > $M/hines_peers_map.txt 2>&1; stamp "hines peers rc=$?"
(cd $OUT && tar czf map.tgz map)
prof() { local name=$1 filter=$2 kern=$3
  timeout 60 ncu --kernel-name-base demangled --kernel-name "regex:$kern" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats $map --map-reps=1 --benchmark_filter="$filter" > $OUT/ncu/$name.txt 2>&1
  stamp "ncu $name rc=$?"; }
prof thomas_flat_m20000 '^Thomas/Device/Flat/Auto/m:20000/total:26$' 'impl::Thomas'
prof thomas_fi_m3000 '^Thomas/Device/FullInterleaved/Auto/m:3000/total:26$' 'impl::Thomas'
prof hines_flat_3187 '^Hines/Device/Flat/Auto/real-10-2012-02-09-001/n:3187/total:26$' 'impl::Solve'
prof hines_fi_3187 '^Hines/Device/FullInterleaved/Auto/real-10-2012-02-09-001/n:3187/total:26$' 'impl::Solve'
(cd $OUT && tar czf ncu.tgz ncu)
run() { local name=$1 t=$2; shift 2
  OMP_NUM_THREADS=$t timeout 100 $c/bin/hinesbatch-sim examples/sim/real_mixed.json --backend host --quiet --set 'output={}' \
    --metrics $OUT/host/$name.json --spikes $OUT/host/$name.spk "$@" > $OUT/host/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$OUT/host/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'))" 2>/dev/null) $(md5sum < $OUT/host/$name.spk | cut -c1-32)"; }
for n in 1000 2000; do for t in 1 16; do run mixed${n}_t$t $t --set network.cells=$n --set network.kick.cells=$((n / 20)) --set tstop=5; done; done
(cd $OUT && tar czf host.tgz host)
MAP_HOST_TOTALS=22,24 OUT=$M timeout 150 bash scripts/gpu/solver-map.sh host; stamp "map host rc=$?"
(cd $OUT && tar czf map.tgz map && rm -rf map ncu host)
