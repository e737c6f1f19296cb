# Call F (2026-11-24, issue #10), nvidia-h100-x1: call E's whole CUDA unit suite again with a longer limit (call E's machine needed more than its 330 s), same binaries (03d68df); then the 10,000-cell ring twice and P3's literal setup of 50 M connections again.
D=$OUT; R=/tmp/rF; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt
timeout 500 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; tar czf $D/rF.tgz -C $R .
cd $R; export OMP_PROC_BIND=false
run() { name=$1; shift; timeout 40 $B/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $name.json --spikes $name.txt > $name.log 2>&1; echo "$name rc=$? $(md5sum < $name.txt | cut -c1-8) $(grep -o '"overlap": [a-z]*' $name.json) $(grep -o '"epoch_steps": [0-9]*' $name.json) $(grep -o '"compartment_steps_per_s": [0-9.e+]*' $name.json) $(grep -o '"setup_connections_s": [0-9.e+]*' $name.json)" | tee -a run.log; }
run ring10k $E/ring.json --set network.cells=10000
run ring10k_b $E/ring.json --set network.cells=10000
run p3_literal100k $E/p3.json --set network.cells=100000
md5sum *.txt > spikes.md5; rm -f *.txt
tar czf $D/rF.tgz -C $R .
