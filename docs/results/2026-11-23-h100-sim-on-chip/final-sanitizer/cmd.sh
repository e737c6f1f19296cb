# Final binaries, H100: racecheck (and memcheck) restricted to the on-chip epoch kernel (--kernel-name kns=StepCellEpochOnChip), so that Kokkos::sort's reduction (whose warp-level warnings fill the whole-test reports) does not hide them.
D=$OUT; R=/tmp/l7; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
source scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in racecheck memcheck; do
  extra=(); [ $tool = racecheck ] && extra=(--racecheck-report all)
  timeout 150 $cs --tool $tool "${extra[@]}" --kernel-name kns=StepCellEpochOnChip --error-exitcode 99 --log-file $R/$tool.log \
    .devcarry/bin/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.OnChipMatchesCellsOnEveryBackend:SimulationSchedules.OnChipNames*' > $R/$tool.txt 2>&1
  echo "$tool (unit tests) rc=$? $(grep -E 'SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.txt | tr '\n' ' ')"
  timeout 100 $cs --tool $tool "${extra[@]}" --kernel-name kns=StepCellEpochOnChip --error-exitcode 99 --log-file $R/${tool}_sim.log \
    .devcarry/bin/hinesbatch-sim examples/sim/p3_synaptic.json --set network.cells=200 --set network.kick.cells=20 --set tstop=40 --set 'output={}' --on-chip on --spikes $R/spikes_$tool.txt > $R/${tool}_sim.txt 2>&1
  echo "$tool (sim, p3 synaptic 200 cells) rc=$? $(grep -E 'SUMMARY' $R/${tool}_sim.log | tail -1) $(grep 'done:' $R/${tool}_sim.txt | sed 's/.*done: //' | cut -c1-40)"
done
tar czf $D/l7.tgz -C $R .
