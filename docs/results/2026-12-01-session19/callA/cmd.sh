#!/usr/bin/env bash
# Call A (binA.txz: this session's tree, CUDA 11.8 + Kokkos 3.4 build) in two parts, each
# within the device tool's 600 s. `part1`: the generated mechanisms on CUDA
# (nmodl_unit_tests; hinesbatch-nmodl-cell against NEURON's traces saved on the dev machine,
# .devcarry/nmodl_ref, 47 cases: the steady states and CONSERVE among them),
# compute-sanitizer memcheck of the cell on the steady-state cases, unit-suite shard 0 of 2.
# `part2`: shard 1, memcheck on the event, synapse, generated-mechanism and artificial-cell
# tests.
# Run from the repository root with .devcarry carried: cmd.sh part1 | part2.
set -u
part=$1
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
rm -rf $c/binA $c/nmodl_ref && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA && tar xJf $c/nmodl_ref.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary_$part.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binA/hinesbatch_unit_tests; CELL=$c/binA/hinesbatch-nmodl-cell
shard() {
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$1 OMP_NUM_THREADS=8 timeout 420 $U --gtest_brief=1 > $L/suite_$1.txt 2>&1
  stamp "suite shard $1/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$1.txt | tr '\n' ' ')"
  grep -h "FAILED" $L/suite_$1.txt | head -20 | tee -a $S
}
if [ $part = part1 ]; then
  timeout 60 $c/binA/nmodl_unit_tests > $L/nmodl_unit_tests_cuda.txt 2>&1
  stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl_unit_tests_cuda.txt | tr '\n' ' ')"
  timeout 200 python3 scripts/validation/nmodl_vs_neuron.py --cell $CELL --reference-dir $c/nmodl_ref \
    --workdir $L/nmodl_cuda -v > $L/nmodl_vs_neuron_cuda.txt 2>&1
  stamp "nmodl_vs_neuron on CUDA rc=$? $(tail -1 $L/nmodl_vs_neuron_cuda.txt)"
  grep -A8 -E "^(ok|FAIL) +(mcna|kcons|ligand)" $L/nmodl_vs_neuron_cuda.txt >> $S
  for k in mcna_iclamp ligand_gate_vclamp kcons_iclamp; do
    timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $CELL $L/nmodl_cuda/$k/protocol.txt $L/memcheck_$k.csv > $L/memcheck_cell_$k.txt 2>&1
    stamp "memcheck hinesbatch-nmodl-cell $k rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_cell_$k.txt)"
  done
  shard 0
else
  shard 1
  OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $U \
    --gtest_filter='Simulation/*.DeviceEvents*:SimulationRecords.*:PointProcessSynapses.*:GeneratedMechanisms*:ArtificialCells.*' --gtest_brief=1 > $L/memcheck.txt 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
fi
rm -f $L/*.spk; xz -9 $L/*.txt $L/*.log $L/*.csv 2>/dev/null
(cd $OUT && tar cJf d_$part.tar.xz d && rm -rf d)
stamp done
