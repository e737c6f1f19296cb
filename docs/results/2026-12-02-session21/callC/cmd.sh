#!/usr/bin/env bash
# Call C: generated mechanisms on CUDA after the conductance-hint check and VERBATIM habits
# (binC.txz: the cuda-h100 build's hinesbatch-nmodl-cell and nmodl_unit_tests): the unit
# tests, the 51 single-compartment cases against NEURON's traces saved on the dev machine
# (.devcarry/nmodl_ref), and compute-sanitizer memcheck on the cell program for array_loops, verbatim_habits
# and cabpump.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC $c/nmodl_ref && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC && tar xJf $c/nmodl_ref.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt; L=$OUT/c; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
timeout 120 $c/binC/nmodl_unit_tests > $L/nmodl_unit_tests.txt 2>&1
stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl_unit_tests.txt | tr '\n' ' ')"
timeout 300 python3 scripts/validation/nmodl_vs_neuron.py --cell $c/binC/hinesbatch-nmodl-cell \
  --reference-dir $c/nmodl_ref --workdir $L/cases -v > $L/nmodl_vs_neuron_cuda.txt 2>&1
stamp "nmodl_vs_neuron rc=$? $(tail -1 $L/nmodl_vs_neuron_cuda.txt)"
grep -A12 -E "^(ok  |FAIL) (cabpump|array_gates|array_loops|verbatim|mcna|ligand)" $L/nmodl_vs_neuron_cuda.txt | grep -E "^(ok|FAIL)|!!|m\.|cai" | head -40 >> $S
for k in array_loops_iclamp verbatim_habits_iclamp cabpump_vclamp; do
  timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $c/binC/hinesbatch-nmodl-cell \
    $L/cases/$k/protocol.txt $L/memcheck_$k.csv > $L/memcheck_$k.txt 2>&1
  stamp "memcheck $k rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_$k.txt)"
done
rm -f $L/memcheck_*.csv
(cd $OUT && tar cJf c.tar.xz c && rm -rf c)
stamp done
