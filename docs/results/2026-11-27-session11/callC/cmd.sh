#!/usr/bin/env bash
# Call C (call A's binaries): call B's sanitizer runs again with a valid network (call B's
# asked for 50 synapses per cell of 48 and 24 cells, which the config refuses), and the large
# real cells as session 10 ran them (100 cells kicked).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -d $c/bin ] || tar xJf $c/binA.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
SIM=$c/bin/hinesbatch-sim
run() { local name=$1; shift
  timeout 60 $SIM "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m['schedule'], m['team_lanes'], m['tile_cells'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run large2000 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
REC='record=[{"gid":0},{"gid":7,"location":{"section":1,"x":0.5}},{"gid":3,"variable":"m_hh"}]'
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $SIM examples/sim/real_mixed.json \
  --set network.cells=48 --set network.synapses_per_cell=10 --set network.kick.cells=8 --set tstop=5 \
  --set "$REC" --set record_dt=0.1 --quiet --set 'output={}' --traces $L/memcheck_rec.csv > $L/memcheck_records.txt 2>&1
stamp "memcheck records every record_dt, on chip rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_records.txt | tail -1) $(wc -l < $L/memcheck_rec.csv) rows"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $SIM examples/sim/real_mixed.json \
  --set network.cells=24 --set network.synapses_per_cell=10 --set network.kick.cells=4 --set tstop=2 \
  --quiet --set 'output={}' > $L/racecheck_on_chip.txt 2>&1
stamp "racecheck mixed on chip rc=$? $(grep -E 'RACECHECK SUMMARY' $L/racecheck_on_chip.txt | tail -1)"
(cd $OUT && tar czf d.tgz d && rm -rf d)
stamp done
