#!/usr/bin/env bash
# Call D1: what the generated (NMODL) hh costs on chip against the built-in, same binary
# (session-4 build, f5f7c97): Nsight Compute on one epoch of the on-chip kernel for the
# ringtest model (hh everywhere) and the P3 network (hh soma, pas dendrites), built-in
# and generated; then the same networks timed.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -x $c/bin/hinesbatch-sim ] || { rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d1; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim
gen_all='[{"name": "hh", "region": "all", "parameters": {"gnabar": 0.12}}]'
gen_p3='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}}, {"name": "pas", "region": "dend", "parameters": {"g": 0.0001, "e": -65}}]'
ncu_run() { local name=$1; shift
  timeout 150 ncu --kernel-name-base demangled --kernel-name regex:StepCellEpochOnChip --launch-count 1 --set full \
    --metrics l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread \
    --page details --print-details all $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --set tstop=1 > $L/ncu_$name.txt 2>&1
  stamp "ncu $name rc=$? $(grep -E 'Duration|Registers Per Thread|local_op_ld.sum|local_op_st.sum|smsp__inst_executed.sum|dram__bytes_read.sum|dram__bytes_write.sum|lts__t_bytes.sum' $L/ncu_$name.txt | awk '{$1=$1};1' | tr '\n' ';')"; }
ncu_run ringtest_builtin $E/ringtest.json --set network.cells=10000 --set 'record=[]'
ncu_run ringtest_generated $E/ringtest.json --set network.cells=10000 --set 'record=[]' --set "cell.mechanisms=$gen_all"
ncu_run p3_builtin $E/p3_synaptic.json --set network.cells=20000 --set network.kick.cells=2000
ncu_run p3_generated $E/p3_synaptic.json --set network.cells=20000 --set network.kick.cells=2000 --set "cell.mechanisms=$gen_p3"
run() { local name=$1; shift
  timeout 120 $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run ringtest65536_builtin $E/ringtest.json --set network.cells=65536 --set 'record=[]'
run ringtest65536_generated $E/ringtest.json --set network.cells=65536 --set 'record=[]' --set "cell.mechanisms=$gen_all"
(cd $OUT && rm -f $L/*.spk && tar czf d1.tgz d1 && rm -rf d1)
