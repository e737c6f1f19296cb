# Call C (2026-11-25, issue #34), one GPU: the whole unit suite (CUDA, OpenMP, Serial) on the
# new on-chip launches (call B's 200 s limit cut it); memcheck and racecheck (errors) over
# the large-cell test (a 4,003-node cell: a team of several warps, 64 KB of shared memory
# past the 48 KB default, and the team's memory); forced shapes on the largest shared cell
# at 10 um (v_e_moto1, 8,269 compartments) at 2,000 and 200 cells.
D=$OUT; R=/tmp/rC; mkdir -p $R; cp .devcarry/cmdC.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
export OMP_PROC_BIND=false
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
F='SimulationSchedules.OnChipNamesFailuresAndTakes*'
timeout 100 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck.log $B/hinesbatch_unit_tests --gtest_filter="$F" > $R/memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck.txt | tr '\n' ' ')" | tee -a $R/run.log
timeout 80 $cs --tool racecheck --racecheck-detect-level error --error-exitcode 99 --log-file $R/racecheck.log $B/hinesbatch_unit_tests --gtest_filter="$F" > $R/racecheck.txt 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/racecheck.txt | tr '\n' ' ')" | tee -a $R/run.log
tar czf $D/rC.tgz -C $R .
M='--set cell.morphology="${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc"'
for n in 2000 200; do for s in auto team_per_cell:1024 team_per_cell:512 team_in_memory:128 team_in_memory:256 team_in_memory:512 team_in_memory:1024; do
 k=${s%%:*}; l=${s##*:}; [ $s = auto ] && k=auto && l=0
 timeout 40 $B/hinesbatch-sim $E/real_large.json --quiet --set 'output={}' --set cell.morphology='"${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc"' --set network.cells=$n --set network.kick.cells=$((n/20)) --set tstop=10 --set run.on_chip_kind="\"$k\"" --set run.on_chip_lanes=$l --metrics $R/moto_${n}_${k}_$l.json --spikes $R/moto_${n}_${k}_$l.txt > $R/moto_${n}_${k}_$l.log 2>&1
 echo "moto $n $k $l rc=$? $(grep -o '"compartment_steps_per_s": [0-9.e+-]*' $R/moto_${n}_${k}_$l.json) md5 $(md5sum < $R/moto_${n}_${k}_$l.txt | cut -c1-8) $(grep -o '"schedule_detail": "[^"]*' $R/moto_${n}_${k}_$l.json | cut -c20-140)" | tee -a $R/run.log
done; done
rm -f $R/moto_*.txt; tar czf $D/rC.tgz -C $R .
OUT=$R timeout 330 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; tar czf $D/rC.tgz -C $R .
