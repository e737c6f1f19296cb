#!/usr/bin/env bash
# Call D (four GPUs, one rank each): weak scaling (100,000 cells per GPU) and strong scaling
# (100,000 and 400,000 cells) of the P3 synaptic network and the busyring, overlap on, with
# the rasters compared across GPU counts; the final build's hinesbatch-sim.
set -u
cd "$(dirname "$0")/../../.."; c=$PWD/.devcarry
mkdir -p $c/bin && tar xzf $c/simbin.tgz -C $c/bin
nvidia-smi -L | tee $OUT/gpus.txt; nproc | tee $OUT/nproc.txt
SIM_BUDGET_S=560 SIM_RESERVE_S=40 SIM_STRONG=400000 SIM_ONLY='_weak100000_|_weak10000_|_strong' bash scripts/gpu/sim-scaling.sh gpu 2>&1 | tail -40
cd $OUT && tar czf runs.tgz sim_gpu && rm -rf sim_gpu
