# Call 1 (2026-11-23, issue #9): the packed multi-morphology CellLanes schedule on the H100: its CUDA tests (and the on-chip simulation's, whose solve it now shares), the 10,000-cell ring's spike file against round 5's md5 (63bdd4f8...), RealMixed / Fig14 / Fig6 benchmarks against the other paths and the CoreNEURON-style peer on the same cells, Nsight Compute bytes of the new kernel.
# As run: the benchmark filters ended in "$" (Google Benchmark names end in /manual_time: nothing matched) and the cell export lacked HINESBATCH_SHARED_DIR; round1/cmd.sh is the corrected rerun of the same binaries. The tests and the ring check are this call's.
D=$OUT; R=/tmp/r1; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi -L | tee $R/gpu.txt
timeout 150 bash scripts/gpu/device-run.sh 'tests:MultiMorphology*:SimulationSchedules*:CellLanePlan*' 2>&1 | tee $R/run.log
ROOT=$PWD; (source scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false; cd $R; timeout 60 $ROOT/.devcarry/bin/hinesbatch-sim $ROOT/examples/sim/ring.json --set network.cells=10000 --set 'output={}' --metrics ring_10k.json --spikes ring_10k.txt > ring_10k.log 2>&1; echo "ring rc=$? $(md5sum ring_10k.txt) $(grep 'done:' ring_10k.log | sed 's/.*done: //')" | tee -a $R/run.log; rm -f ring_10k.txt)
timeout 150 bash scripts/gpu/device-run.sh 'perf:multi:^Multi/(RealMixed/25600/(NaiveSorted|LevelLaunches|PackedTeam|PackedLanes)|Fig14/levels[234]/(25600|256000)/(Mono|PackedTeam|PackedLanes)|Fig6/branch(10|50)/25600/(Mono|PackedLanes|PackedTeam))$' 2>&1 | tee -a $R/run.log
cells=$R/cells; mkdir -p $cells
.devcarry/bin/hinesbatch-export-cells $cells/real_25600.bin --mix real --cells 25600 > $R/export_cells.txt 2>&1
.devcarry/bin/hinesbatch-export-cells $cells/real_256000.bin --mix real --cells 256000 >> $R/export_cells.txt 2>&1
timeout 80 .devcarry/peers/hines_peers --cells $cells/real_25600.bin --cells $cells/real_256000.bin --type f64 --repeat 10 --out $R/hines_peers.json > $R/hines_peers.txt 2>&1; echo "hines_peers rc=$?" | tee -a $R/run.log
rm -rf $cells
timeout 150 bash scripts/gpu/device-run.sh 'perf:multi256k:^Multi/RealMixed/256000/(NaiveSorted|PackedTeam|PackedLanes)$' 2>&1 | tee -a $R/run.log
timeout 100 bash scripts/gpu/ncu-bytes.sh '^Multi/RealMixed/25600/PackedLanes$' '^Multi/Fig14/levels4/256000/PackedLanes$' 2>&1 | tee $R/ncu.txt
grep -E "PackedLanes|PackedTeam|NaiveSorted|LevelLaunches|Mono" $R/perf_multi*.txt | sed 's/ \+/ /g' | cut -c1-220
grep -E "^(cuHinesBatch|CoreNEURON)" $R/hines_peers.txt
gzip -9 $R/unit_tests_filtered.log 2>/dev/null
tar czf $D/r1.tgz -C $R .
