#!/usr/bin/env bash
# Call E: compute-sanitizer memcheck on hinesbatch-sim with split spines (v_e_moto1 at
# 10 um, 6 cells, teams of 256 lanes forced, split on; then the model's own choice), the
# landed build of call D.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
mkdir -p $c/x && for f in $c/bin/hinesbatch-sim.xz; do b=$(basename $f .xz); [ -x $c/x/$b ] || { xz -dc $f > $c/x/$b; chmod +x $c/x/$b; }; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
for extra in "--set run.on_chip_lanes=256 --set run.on_chip_split_spines=\"on\"" ""; do
  timeout 80 $CS --tool memcheck --leak-check no $c/x/hinesbatch-sim examples/sim/real_large.json \
    --set cell.morphology=$MOTO --set network.cells=6 --set network.synapses_per_cell=4 --set network.kick.cells=2 \
    --set tstop=0.5 $extra --quiet --set 'output={}' --metrics $T/mc.json > $T/mc.log 2>&1
  stamp "memcheck sim [$extra] rc=$? $(grep -E 'ERROR SUMMARY' $T/mc.log) $(python3 -c "import json; m=json.load(open('$T/mc.json')); print(m.get('schedule_detail','')[:120])" 2>/dev/null)"
  cat $T/mc.log >> $T/memcheck_sim.log
done
(cd $OUT && tar cJf t.tar.xz t && rm -rf t)
stamp done
