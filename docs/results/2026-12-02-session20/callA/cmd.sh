#!/usr/bin/env bash
# Call A: the on-chip kernel's team launch bounds (registers per thread) against the rates.
# Each variant is hinesbatch-sim without MPI, built from the tree with the macros
# HINESBATCH_ON_CHIP_TEAM_MAX_LANES / _MIN_BLOCKS (and _WARP_MIN_CELLS), .devcarry/var.txz:
#   base     teams LaunchBounds<1024, 1> (64 registers), warp per cell <32, 28> (72): today's
#   t256x5   teams <256, 5> (at most 51 registers: 40 warps per SM)
#   t256x6   teams <256, 6> (at most 42: 48 warps per SM)
#   (others as packed: see var/*/defs.txt)
# The networks of issue #34's targets and the regressions, each variant in turn, twice;
# rasters by md5. Run from the repository root with .devcarry carried: cmd.sh [rounds]
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/var && mkdir -p $c/var && tar xJf $c/var.txz -C $c/var
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  [ $((SECONDS - t0)) -lt ${BUDGET_S:-500} ] || { stamp "$name not run (time budget)"; return; }
  timeout 90 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail', ''))" 2>/dev/null | cut -c1-400) $(md5sum < $L/$name.spk | cut -c1-8)"; }
MX20="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
MX2="examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50"
LG2="examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50"
LG200="examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50"
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
RT="examples/sim/ringtest.json --set network.cells=65536"
BR="examples/sim/ring.json --set network.cells=10000"
vars=$(ls $c/var)
for k in $(seq 1 ${1:-2}); do
  for net in MX20 MX2 LG2 LG200 P3 RT BR; do
    for v in $vars; do run ${net}_${v}_$k $c/var/$v/hinesbatch-sim ${!net}; done
  done
done
rm -f $L/*.spk; xz -9 $L/*.log $L/*.json 2>/dev/null
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
