#!/usr/bin/env bash
# Call A (binA.txz): pas, hh and ExpSyn from the catalogue (.mod files, the default now)
# against the hand-written ones (--mechanisms builtin) in the same binary, alternating twice,
# on the examples and the real-cell networks; the same networks with the build of main
# before this session (hinesbatch-sim-base, bbfff38: its default is the built-ins; its
# generated path is the configs with "parameters" and a "synapse"); the host backend of the
# OpenMP build on 16 cores.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
for t in mpi libomp; do [ -d $c/$t ] || tar xJf $c/$t.txz -C $c; done
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/a; mkdir -p $L $L/cfg; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim
# The base build's generated configs: every mechanism with "parameters", ExpSyn as the synapse.
python3 - $E $L/cfg <<'PY'
import json, sys
E, out = sys.argv[1], sys.argv[2]
for f in ["p3_synaptic", "ringtest", "ring", "real_mixed", "real_large"]:
    c = json.load(open(f"{E}/{f}.json")); n = c["network"]
    tau, e = n.pop("tau", 2.0), n.pop("e", 0.0)
    n["synapse"] = {"name": "ExpSyn", "parameters": {"tau": tau, "e": e}}
    c["cell"]["mechanisms"] = [{"name": m["name"], "region": m.get("region", "all"),
        "parameters": {k: v for k, v in m.items() if k not in ("name", "region")}} for m in c["cell"]["mechanisms"]]
    json.dump(c, open(f"{out}/{f}_gen.json", "w"), indent=1)
PY
run() { local bin=$1 name=$2; shift 2
  local lp=$LD_LIBRARY_PATH; [ $bin = hinesbatch-sim-omp ] && lp=$c/libomp:$lp  # its HDF5 closure
  LD_LIBRARY_PATH=$lp timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail'))" 2>/dev/null | cut -c1-160) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
declare -A args
args[p3]="$E/p3_synaptic.json --set output={} --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
args[ringtest]="$E/ringtest.json --set output={} --set network.cells=65536 --set record=[]"
args[ring]="$E/ring.json --set output={} --set network.cells=10000"
args[mixed]="$E/real_mixed.json --set output={} $(cells 20000) --set tstop=50"
args[large]="$E/real_large.json --set output={} $(cells 2000) --set tstop=50"
declare -A gen
gen[p3]=p3_synaptic; gen[ringtest]=ringtest; gen[ring]=ring; gen[mixed]=real_mixed; gen[large]=real_large
for be in device host; do run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be; done
for round in 1 2; do
  for net in p3 ringtest ring mixed large; do
    a=${args[$net]}
    run hinesbatch-sim ${net}_catalogue_r$round $a
    run hinesbatch-sim ${net}_builtin_r$round $a --mechanisms builtin
    # The base build: built-ins, and the same networks generated (its configs' forms).
    run hinesbatch-sim-base ${net}_base_builtin_r$round $a
    run hinesbatch-sim-base ${net}_base_generated_r$round $L/cfg/${gen[$net]}_gen.json ${a#* }
  done
done
# The host backend, 16 threads, OpenMP build (AVX2 build flags of the dev machine: generic).
for round in 1 2; do
  for m in catalogue builtin; do
    OMP_NUM_THREADS=16 run hinesbatch-sim-omp host_p3_1000_${m}_r$round $E/p3_synaptic.json --set output={} $(cells 1000) --set tstop=50 --mechanisms $m
    OMP_NUM_THREADS=16 run hinesbatch-sim-omp host_mixed_1000_${m}_r$round $E/real_mixed.json --set output={} $(cells 1000) --set tstop=5 --mechanisms $m
    OMP_NUM_THREADS=1 run hinesbatch-sim-omp host1_mixed_192_${m}_r$round $E/real_mixed.json --set output={} $(cells 192) --set tstop=5 --mechanisms $m
  done
done
stamp done
