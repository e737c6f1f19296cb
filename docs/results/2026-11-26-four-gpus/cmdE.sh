#!/usr/bin/env bash
# Call E (four GPUs): the same runs without overlap (the default), against call D's rasters.
set -u
cd "$(dirname "$0")/../../.."; c=$PWD/.devcarry
mkdir -p $c/bin && tar xzf $c/simbin.tgz -C $c/bin
nvidia-smi -L | tee $OUT/gpus.txt
SIM_BUDGET_S=560 SIM_RESERVE_S=40 SIM_OVERLAP=off SIM_STRONG=400000 SIM_ONLY='_weak100000_|_weak10000_|_strong' bash scripts/gpu/sim-scaling.sh gpu 2>&1 | tail -40
cd $OUT && tar czf runs.tgz sim_gpu && rm -rf sim_gpu
