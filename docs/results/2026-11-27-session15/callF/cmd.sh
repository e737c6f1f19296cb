#!/usr/bin/env bash
# Call F (binF.txz: d/ = call D's hinesbatch-sim, e/ = call E's, which takes the single
# point process's synapse constants through cst_from): P3 100,000 and busyring 10,000,
# alternating twice, rasters by md5.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binF && mkdir -p $c/binF && tar xJf $c/binF.txz -C $c/binF
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
for k in 1 2; do
  for v in d e; do run p3_${v}_$k $c/binF/$v/hinesbatch-sim examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100; done
  for v in d e; do run busyring_${v}_$k $c/binF/$v/hinesbatch-sim examples/sim/ring.json --set network.cells=10000; done
done
rm -f $L/*.spk; (cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
