#!/usr/bin/env bash
# Call C: ncu on four points Auto leaves far from the floor (the filters of call B2 named no
# benchmark), the host map's Hines part (JSON), and 4,000 cells on 16 host threads against one.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -d $c/bin ] || { mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; mkdir -p $OUT/ncu $OUT/host $OUT/map
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
map=$c/bin/hinesbatch_solver_map
prof() { local name=$1 filter=$2 kern=$3
  timeout 90 ncu --kernel-name-base demangled --kernel-name "regex:$kern" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats $map --map-reps=1 --map-families=${name%%_*} --benchmark_filter="$filter" > $OUT/ncu/$name.txt 2>&1
  stamp "ncu $name rc=$? $(grep -c 'Section:' $OUT/ncu/$name.txt) sections"; }
prof thomas_flat_m20000 '^Thomas/Device/Flat/Auto/m:20000/total:26/' 'impl::Thomas'
prof thomas_fi_m3000 '^Thomas/Device/FullInterleaved/Auto/m:3000/total:26/' 'impl::Thomas'
prof hines_flat_3187 '^Hines/Device/Flat/Auto/real-10-2012-02-09-001/n:3187/total:26/' 'impl::Solve'
prof hines_fi_3187 '^Hines/Device/FullInterleaved/Auto/real-10-2012-02-09-001/n:3187/total:26/' 'impl::Solve'
(cd $OUT && tar czf ncu.tgz ncu)
run() { local name=$1 t=$2; shift 2
  OMP_NUM_THREADS=$t timeout 100 $c/bin/hinesbatch-sim examples/sim/real_mixed.json --backend host --quiet --set 'output={}' \
    --metrics $OUT/host/$name.json --spikes $OUT/host/$name.spk "$@" > $OUT/host/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$OUT/host/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'))" 2>/dev/null) $(md5sum < $OUT/host/$name.spk | cut -c1-32)"; }
for t in 16 1; do run mixed4000_t$t $t --set network.cells=4000 --set network.kick.cells=200 --set tstop=5; done
(cd $OUT && tar czf host.tgz host)
OMP_NUM_THREADS=16 timeout 200 $map --map-backends=host --map-families=hines --map-host-totals=22 \
  --benchmark_out=$OUT/map/map_host_hines.json --benchmark_out_format=json > $OUT/map/map_host_hines.txt 2>&1
stamp "map host hines rc=$?"
(cd $OUT && tar czf map.tgz map && rm -rf map ncu host)
