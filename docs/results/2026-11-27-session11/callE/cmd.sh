#!/usr/bin/env bash
# Call E: hinesbatch-sim before (call A's code) and after (call D's: IClamps through the
# catalogue's IClamp) on one H100, alternating, P3 100,000 cells and mixed real cells 20,000:
# call D's rates came from another H100 than calls B and C. cuobjdump -res-usage of the epoch
# kernels: the same registers (64 a team, 72 a warp), one variant's stack 96 -> 88 B.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
tar xJf $c/binE.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 40 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
MX="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
if [ "${1:-}" = mixed ]; then  # the second run (cmd.sh mixed): five more pairs, mixed alone
  for k in 3 4 5 6 7; do
    for v in before after; do run mixed_${v}_$k $c/binE/hinesbatch-sim-$v $MX; done
  done
else
  for k in 1 2; do
    for v in before after; do run p3_${v}_$k $c/binE/hinesbatch-sim-$v $P3; done
    for v in before after; do run mixed_${v}_$k $c/binE/hinesbatch-sim-$v $MX; done
  done
fi
rm -f $L/*.spk
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
