# Call 2 (2026-11-23, issue #9): CellLanes with each cell's plan entries and parent array copied into shared memory (the chain of dependent index loads on chip). CUDA tests of the multi-morphology and on-chip simulation suites; the 10,000-cell ring's spike file against round 5's md5 (63bdd4f8...); RealMixed 25,600 / 256,000 against NaiveSorted, LevelLaunches (25,600), TeamPieces and the CoreNEURON-style peer (call 1's hines_peers.txt, same cells); Fig6; Nsight Compute bytes.
D=$OUT; R=/tmp/r2; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi -L | tee $R/gpu.txt
timeout 150 bash scripts/gpu/device-run.sh 'tests:MultiMorphology*:SimulationSchedules*:CellLanePlan*:PackedLanes*' 2>&1 | tee $R/run.log
ROOT=$PWD; (source scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false; cd $R; timeout 60 $ROOT/.devcarry/bin/hinesbatch-sim $ROOT/examples/sim/ring.json --set network.cells=10000 --set 'output={}' --metrics ring_10k.json --spikes ring_10k.txt > ring_10k.log 2>&1; echo "ring rc=$? $(md5sum ring_10k.txt) $(grep 'done:' ring_10k.log | sed 's/.*done: //')" | tee -a $R/run.log; rm -f ring_10k.txt)
timeout 100 bash scripts/gpu/device-run.sh 'perf:real25600:^Multi/RealMixed/25600/(NaiveSorted|LevelLaunches|PackedTeam|PackedLanes)(/manual_time)?$' 2>&1 | tee -a $R/run.log
timeout 120 bash scripts/gpu/device-run.sh 'perf:real256000:^Multi/RealMixed/256000/(NaiveSorted|PackedTeam|PackedLanes)(/manual_time)?$' 2>&1 | tee -a $R/run.log
timeout 60 bash scripts/gpu/device-run.sh 'perf:fig6:^Multi/Fig6/branch(10|50)/25600/(Mono|PackedTeam|PackedLanes)(/manual_time)?$' 2>&1 | tee -a $R/run.log
timeout 60 bash scripts/gpu/ncu-bytes.sh '^Multi/RealMixed/25600/PackedLanes(/manual_time)?$' 2>&1 | tee $R/ncu.txt
grep -h manual_time $R/perf_*.txt | sed 's/ \+/ /g' | awk '{printf "%s %s %s ", $1, $2, $3; for (i=4;i<=NF;i++) if ($i ~ /items_per_second|plan_seconds|max_rel/) printf "%s ", $i; print ""}'
gzip -9 $R/unit_tests_filtered.log 2>/dev/null
tar czf $D/r2.tgz -C $R .
