# Call J (2026-11-24, stop 26, issue #10), nvidia-h100-x1, the setup fills per template (per-node constants and synapse groups computed once per template; with the on-chip schedule no per-slot constant rows at all): compute-sanitizer racecheck and memcheck on the epoch kernel over the on-chip tests, memcheck (every kernel) over the simulation's tests; the whole CUDA unit suite; spike md5s.
D=$OUT; R=/tmp/rJ; mkdir -p $R; cp .devcarry/cmdJ.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; ROOT=$PWD; export HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rJ.tgz -C $R .; }
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in racecheck memcheck; do
  timeout 100 $cs --tool $tool --kernel-name kns=StepCellEpochOnChip --error-exitcode 99 --log-file $R/$tool.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.OnChip*' > $R/$tool.txt 2>&1
  echo "$tool (epoch kernel) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/$tool.txt | tr '\n' ' ')" | tee -a $R/run.log
done
timeout 120 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
save
OUT=$R timeout 400 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; save
zcat $R/unit_tests*.xml.gz 2>/dev/null | grep -o '<property name="max_abs_v_on[^/]*' | tee -a $R/run.log
cd $R; E=$ROOT/examples/sim
for c in ringtest ring; do timeout 30 $B/hinesbatch-sim $E/$c.json --set network.cells=10000 --set 'output={}' --metrics ${c}10k.json --spikes ${c}10k_spikes.txt > ${c}10k.log 2>&1; echo "${c}10k rc=$? $(grep -o 'done: .*' ${c}10k.log | cut -c1-110) md5 $(md5sum < ${c}10k_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${c}10k_spikes.txt; done
save
cd $R; timeout 60 $B/hinesbatch-sim $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set 'output={}' --metrics p3syn100k.json --spikes p3syn100k_spikes.txt > p3syn100k.log 2>&1; echo "p3syn100k rc=$? $(grep -o 'done: .*' p3syn100k.log | cut -c1-110) md5 $(md5sum < p3syn100k_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f p3syn100k_spikes.txt
save
