# Call A (2026-11-24, issue #10), nvidia-h200-x2: binaries of the cable_matrix change (one builder of the fixed cable matrix for CellGroup, solver tests and benchmarks). The whole CUDA unit suite; compute-sanitizer memcheck over the new and the simulation's on-chip tests; the ring's spike md5 (63bdd4f8... before); the Multi/RealCable benchmarks beside RealMixed.
D=$OUT; R=/tmp/rA; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; nproc > $R/nproc.txt; lscpu > $R/lscpu.txt
timeout 330 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; tar czf $D/rA.tgz -C $R .
(cd $R && timeout 60 $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set 'output={}' --quiet --metrics ring_10k.json --spikes ring_10k.txt; echo "ring rc=$? $(md5sum ring_10k.txt) $(wc -l < ring_10k.txt) spikes $(grep -o '"compartment_steps_per_s": [0-9.e+]*' ring_10k.json)" | tee -a run.log; rm -f ring_10k.txt)
SANITIZE_LIMIT_S=100 SANITIZE_FILTER='MultiMorphology/*.RealCellsWithTheCableMatrix:CableMatrix*:SimulationSchedules.OnChipMatchesCellsOnEveryBackend:SimulationBackends.*' timeout 115 bash scripts/gpu/device-run.sh sanitize:memcheck 2>&1 | tail -3 | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log 2>/dev/null; tar czf $D/rA.tgz -C $R .
export OMP_PROC_BIND=spread OMP_PLACES=threads HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
timeout 110 $B/hinesbatch_perf_tests --benchmark_filter='^Multi/(RealCable|RealMixed)/25600/.*(/manual_time)?$' --benchmark_min_time=0.05 --benchmark_out=$R/perf_realcable.json --benchmark_out_format=json > $R/perf_realcable.txt 2>&1; echo "realcable rc=$?" | tee -a $R/run.log
grep -h manual_time $R/perf_realcable.txt | awk '{n="";for(i=1;i<=NF;i++) if($i ~ /^nodes_per_s=/) n=$i; print $1, n}' | tee -a $R/run.log
tar czf $D/rA.tgz -C $R .
