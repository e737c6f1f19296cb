#!/usr/bin/env bash
# Call B (call A's binaries): the examples' rasters and rates (md5 against session 10),
# P3 with the catalogue's and the hand-written mechanisms alternating, records every
# record_dt = 0.1 ms against every step's rows on the GPU's on-chip schedule, and
# compute-sanitizer (memcheck of those records and of the cells schedule's synapses).
# Run from the repository root with .devcarry carried.
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
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
run p3syn100000_a $P3
run p3syn100000_builtin_a $P3 --mechanisms builtin
run p3syn100000_b $P3
run p3syn100000_builtin_b $P3 --mechanisms builtin
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run large2000 examples/sim/real_large.json --set network.cells=2000 --set tstop=50
run ringtest65536 examples/sim/ringtest.json --set network.cells=65536 --set record=[]
# Records on chip: every step, and every 0.1 ms (4 steps), the same rows.
REC='record=[{"gid":0},{"gid":7,"location":{"section":1,"x":0.5}},{"gid":3,"variable":"m_hh"}]'
for k in every dt01; do
  extra=(); [ $k = dt01 ] && extra=(--set record_dt=0.1)
  timeout 60 $SIM examples/sim/real_mixed.json --set network.cells=200 --set network.kick.cells=20 \
    --set tstop=20 --set "$REC" "${extra[@]}" --quiet --set 'output={}' --traces $L/rec_$k.csv \
    --spikes $L/rec_$k.spk --metrics $L/rec_$k.json > $L/rec_$k.log 2>&1
  stamp "records $k rc=$? $(wc -l < $L/rec_$k.csv) rows $(python3 -c "import json; print(json.load(open('$L/rec_$k.json'))['schedule'])" 2>/dev/null)"
done
python3 - $L/rec_every.csv $L/rec_dt01.csv <<'PY' | tee -a $S
import sys, csv
a = list(csv.reader(open(sys.argv[1]))); b = list(csv.reader(open(sys.argv[2])))
ok = a[0] == b[0] and a[1::4] == b[1:]
print("record_dt 0.1: header equal %s, %d rows = every 4th of %d rows: %s" % (a[0] == b[0], len(b) - 1, len(a) - 1, ok))
PY
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $SIM examples/sim/real_mixed.json \
  --set network.cells=48 --set network.kick.cells=8 --set tstop=5 --set "$REC" --set record_dt=0.1 \
  --quiet --set 'output={}' --traces $L/memcheck_rec.csv > $L/memcheck_records.txt 2>&1
stamp "memcheck records every record_dt, on chip rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_records.txt | tail -1)"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $SIM examples/sim/two_templates.json \
  --on-chip off --quiet --set 'output={}' --set tstop=5 --spikes $L/two_templates_cells.spk > $L/memcheck_cells_synapses.txt 2>&1
stamp "memcheck two_templates, cells schedule rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_cells_synapses.txt | tail -1)"
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $SIM examples/sim/real_mixed.json \
  --set network.cells=24 --set network.kick.cells=4 --set tstop=2 --quiet --set 'output={}' > $L/racecheck_on_chip.txt 2>&1
stamp "racecheck mixed on chip rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $L/racecheck_on_chip.txt | tail -1)"
(cd $OUT && tar czf d.tgz d && rm -rf d)
stamp done
