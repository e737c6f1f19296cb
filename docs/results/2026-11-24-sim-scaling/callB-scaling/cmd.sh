# Call B (2026-11-24, issue #10), nvidia-h200-x2: scripts/gpu/sim-scaling.sh gpu then cpu on the networks that run on their synapses (p3_synaptic, ring; 100 ms), P3's literal setup for 50 M connections; weak and strong scaling, rasters compared across rank counts and overlap.
D=$OUT; R=/tmp/rB; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi -L | tee $R/gpu.txt; nproc | tee $R/nproc.txt
SIM_BUDGET_S=290 bash scripts/gpu/sim-scaling.sh gpu 2>&1 | tee $R/run_gpu.log
tar czf $D/rB.tgz -C $R .
SIM_BUDGET_S=230 SIM_RESERVE_S=20 bash scripts/gpu/sim-scaling.sh cpu 2>&1 | tee $R/run_cpu.log
tar czf $D/rB.tgz -C $R .
