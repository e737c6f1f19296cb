# Call D (2026-11-25, issue #34), one GPU, the final build (solvers keep 40 KB of level-0
# scratch; the plan also weighs teams in their own memory): compute-sanitizer racecheck
# (shared memory of a 128-lane team) and memcheck (a 1,024-lane team with 132 KB of opted-in
# shared memory; a team in its own memory) on hinesbatch-sim runs of two real cells; the
# plan's choices on v_e_moto1 at 10 um and the mixed network; the whole unit suite (CUDA,
# OpenMP, Serial) in two shards side by side.
D=$OUT; R=/tmp/rD; mkdir -p $R; cp .devcarry/cmdD.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared OMP_PROC_BIND=false
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
SIM=($B/hinesbatch-sim $E/real_large.json --quiet --set 'output={}' --set network.cells=2 --set network.kick.cells=1 --set tstop=0.5)
MOTO='cell.morphology="${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc"'
timeout 80 $cs --tool racecheck --racecheck-detect-level error --error-exitcode 99 --log-file $R/racecheck.log "${SIM[@]}" --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=128 > $R/racecheck.txt 2>&1
echo "racecheck team 128 rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1)" | tee -a $R/run.log
timeout 50 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_shared.log "${SIM[@]}" --set "$MOTO" --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=1024 --metrics $R/memcheck_shared.json > $R/memcheck_shared.txt 2>&1
echo "memcheck team 1024, 132 KB shared rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_shared.log | tail -1) $(grep -o 'team_per_cell of [0-9]* lanes[^;"]*' $R/memcheck_shared.json)" | tee -a $R/run.log
timeout 50 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_memory.log "${SIM[@]}" --set "$MOTO" --set run.on_chip_kind='"team_in_memory"' --set run.on_chip_lanes=128 --metrics $R/memcheck_memory.json > $R/memcheck_memory.txt 2>&1
echo "memcheck team in memory 128 rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_memory.log | tail -1)" | tee -a $R/run.log
for n in 2000 200; do
 timeout 30 $B/hinesbatch-sim $E/real_large.json --quiet --set 'output={}' --set "$MOTO" --set network.cells=$n --set network.kick.cells=$((n/20)) --set tstop=10 --metrics $R/moto_$n.json > $R/moto_$n.log 2>&1
 echo "moto $n rc=$? $(grep -o '"compartment_steps_per_s": [0-9.e+-]*' $R/moto_$n.json) $(grep -o '"schedule_detail": "[^"]*' $R/moto_$n.json | cut -c20-150)" | tee -a $R/run.log
done
timeout 40 $B/hinesbatch-sim $E/real_mixed.json --quiet --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50 --metrics $R/mixed_20000.json > $R/mixed_20000.log 2>&1
echo "mixed 20000 rc=$? $(grep -o '"compartment_steps_per_s": [0-9.e+-]*' $R/mixed_20000.json) $(grep -o '"spikes": [0-9]*' $R/mixed_20000.json)" | tee -a $R/run.log
tar czf $D/rD.tgz -C $R .
echo "=== unit tests (CUDA, OpenMP, Serial), 2 shards" | tee -a $R/run.log
for i in 0 1; do GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=8 timeout 400 $B/hinesbatch_unit_tests --gtest_output=xml:$R/unit_tests_$i.xml > $R/unit_tests_$i.log 2>&1 & done; wait
for i in 0 1; do echo "shard $i: $(grep -E '^\[==========\]|^\[  (PASSED|FAILED) ' $R/unit_tests_$i.log | tr '\n' ' ')" | tee -a $R/run.log; grep -E '^\[  FAILED  \]' $R/unit_tests_$i.log | head -5 | tee -a $R/run.log; done
gzip -9 $R/unit_tests_*; tar czf $D/rD.tgz -C $R .
