#!/usr/bin/env bash
# Call A: generated mechanisms on CUDA after arrays, COMPARTMENT and NEURON's sparse rules
# (binA.txz: the cuda-h100 build's hinesbatch-nmodl-cell and nmodl_unit_tests): the unit
# tests, the 49 single-compartment cases against NEURON's traces saved on the dev machine
# (.devcarry/nmodl_ref), and compute-sanitizer memcheck on the cell program for the KINETIC
# cases (cabpump: 12 states, Newton on the device; array_gates; mcna; ligand_gate).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA $c/nmodl_ref && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA && tar xJf $c/nmodl_ref.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt; L=$OUT/a; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
timeout 120 $c/binA/nmodl_unit_tests > $L/nmodl_unit_tests.txt 2>&1
stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl_unit_tests.txt | tr '\n' ' ')"
timeout 300 python3 scripts/validation/nmodl_vs_neuron.py --cell $c/binA/hinesbatch-nmodl-cell \
  --reference-dir $c/nmodl_ref --workdir $L/cases -v > $L/nmodl_vs_neuron_cuda.txt 2>&1
stamp "nmodl_vs_neuron rc=$? $(tail -1 $L/nmodl_vs_neuron_cuda.txt)"
grep -A12 -E "^(ok  |FAIL) (cabpump|array_gates|mcna|ligand)" $L/nmodl_vs_neuron_cuda.txt | grep -E "^(ok|FAIL)|!!|m\.|cai" | head -40 >> $S
for k in cabpump_vclamp array_gates_iclamp mcna_vclamp ligand_gate_vclamp; do
  timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $c/binA/hinesbatch-nmodl-cell \
    $L/cases/$k/protocol.txt $L/memcheck_$k.csv > $L/memcheck_$k.txt 2>&1
  stamp "memcheck $k rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_$k.txt)"
done
rm -f $L/memcheck_*.csv
(cd $OUT && tar cJf a.tar.xz a && rm -rf a)
stamp done
