#!/usr/bin/env bash
# Call B: point processes placed on cells (cell.point_processes) on CUDA, and the whole CUDA
# unit suite after that change (binB.txz: the cuda-h100 build's hinesbatch_unit_tests and
# hinesbatch-sim-l5pc). The pointprocs case (tonic_syn.mod and the catalogue's IClamp on
# three cnic_004 cells) on the GPU's on-chip and cells schedules and on the binary's host
# backend, each against NEURON 8.2's spikes and traces saved on the dev machine
# (.devcarry/pp_ref, validate_neuron.py's work files); compute-sanitizer memcheck on both
# GPU schedules. The unit suite runs alongside (no timing assertions).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; L=$OUT/b; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binB/hinesbatch_unit_tests
(OMP_NUM_THREADS=8 timeout 540 $U --gtest_brief=1 > $L/unit_tests.txt 2>&1; echo "rc=$?" >> $L/unit_tests.txt) &
suite=$!
SIM=$c/binB/hinesbatch-sim-l5pc
CFG=scripts/validation/cases_mod/pointprocs_explicit_cnic004.json
CMP=docs/results/2026-12-02-session21/callB/compare_runs.py
R=$c/pp_ref
for run in "on_chip:--on-chip on" "cells:--on-chip off" "host:--backend host --host-schedule tiles --on-chip off"; do
  name=${run%%:*}; args=${run#*:}
  OMP_NUM_THREADS=4 timeout 120 $SIM $CFG $args --spikes $L/pp_$name.spikes --traces $L/pp_$name.csv \
    --metrics $L/pp_$name.json > $L/pp_$name.log 2>&1
  rc=$?
  stamp "pointprocs $name rc=$rc $(grep -o '"schedule": "[a-z_]*"' $L/pp_$name.json | head -1) vs NEURON: $(python3 $CMP $R/neuron_spikes.txt $R/neuron.csv $L/pp_$name.spikes $L/pp_$name.csv 2>&1 | tail -1)"
  stamp "  vs the dev machine's OpenMP run: $(python3 $CMP $R/ours_spikes.txt $R/ours.csv $L/pp_$name.spikes $L/pp_$name.csv 1e-6 2>&1 | tail -1)"
done
for run in "on_chip:--on-chip on" "cells:--on-chip off"; do
  name=${run%%:*}; args=${run#*:}
  OMP_NUM_THREADS=4 timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $SIM $CFG $args \
    --set tstop=15 --quiet > $L/memcheck_$name.txt 2>&1
  stamp "memcheck pointprocs $name rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_$name.txt)"
done
wait $suite
stamp "CUDA unit suite $(tail -1 $L/unit_tests.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/unit_tests.txt | tr '\n' ' ')"
grep -h "FAILED" $L/unit_tests.txt | head -20 | tee -a $S
xz -9 $L/unit_tests.txt
(cd $OUT && tar cJf b.tar.xz b && rm -rf b)
stamp done
