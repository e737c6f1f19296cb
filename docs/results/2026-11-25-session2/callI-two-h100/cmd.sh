#!/usr/bin/env bash
# Call I (two GPUs): strong scaling of 400,000 cells, overlap on and off; 16 and 32 CPU ranks.
set -u
cd "$(dirname "$0")/.."; c=$PWD/.devcarry
mkdir -p $c/bin && tar xzf $c/simbin.tgz -C $c/bin && ls $c/bin
nvidia-smi -L | tee $OUT/gpus.txt; nproc | tee $OUT/nproc.txt
export SIM_BUDGET_S=200
SIM_STRONG=400000 SIM_ONLY='strong400000' bash scripts/gpu/sim-scaling.sh gpu 2>&1 | tail -20
SIM_BUDGET_S=90 SIM_STRONG=400000 SIM_ONLY='strong400000_g2' SIM_OVERLAP=off bash scripts/gpu/sim-scaling.sh gpu 2>&1 | tail -8
SIM_BUDGET_S=150 SIM_ONLY='p3syn_strong4000_p(16|32)' bash scripts/gpu/sim-scaling.sh cpu 2>&1 | tail -8
SIM_BUDGET_S=60 SIM_ONLY='p3syn_strong4000_p32' SIM_OVERLAP=off bash scripts/gpu/sim-scaling.sh cpu 2>&1 | tail -4
cd $OUT && tar czf runs.tgz sim_gpu sim_cpu && rm -rf sim_gpu sim_cpu
