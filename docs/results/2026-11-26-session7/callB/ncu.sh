#!/usr/bin/env bash
# Call B: Nsight Compute on the on-chip epoch kernel of the P3 network (10,000 cells), built-in
# hh/pas/ExpSyn against generated hh/pas with the built-in ExpSyn and against generated
# hh/pas/ExpSyn (binaries of call A, binA.txz: main 354c087 with per-instance invariants).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
L=$OUT/b; mkdir -p $L; E=examples/sim
python3 - $E/p3_synaptic.json $L <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
for name, mech, syn in [("builtin", False, False), ("gen_mech", True, False), ("gen_all", True, True)]:
    c = json.load(open(src)); n = c["network"]
    if syn:
        tau, e = n.pop("tau", 2.0), n.pop("e", 0.0)
        n["synapse"] = {"name": "ExpSyn", "parameters": {"tau": tau, "e": e}}
    if mech:
        c["cell"]["mechanisms"] = [{"name": m["name"], "region": m.get("region", "all"),
            "parameters": {k: v for k, v in m.items() if k not in ("name", "region")}} for m in c["cell"]["mechanisms"]]
    json.dump(c, open(f"{out}/{name}.json", "w"), indent=1)
PY
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for v in builtin gen_mech gen_all; do
  timeout 150 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 20 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_bytes.sum,lts__t_bytes.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum \
    $c/bin/hinesbatch-sim $L/$v.json --set output={} --set network.cells=10000 --set network.kick.cells=1000 --set tstop=40 --quiet > $L/ncu_$v.txt 2>&1
  echo "== $v rc=$? $(grep -E 'Duration|Registers Per Thread|Achieved Occupancy|dram__bytes_(read|write).sum |smsp__inst_executed.sum |op_global_ld.sum|Issue Slots Busy|Stall|Warp Cycles Per Issued' $L/ncu_$v.txt | tr -s ' ' | tr '\n' ';')"
done
for v in builtin gen_mech gen_all builtin gen_mech gen_all; do
  timeout 100 $c/bin/hinesbatch-sim $L/$v.json --set output={} --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --quiet --metrics $L/m.json > /dev/null 2>&1
  echo "$v 100000 $(python3 -c "import json; m=json.load(open('$L/m.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])")"
done
tar czf $OUT/b.tgz -C $OUT b && rm -rf $L
