# Call F (2026-11-25, issue #33), nvidia-h100-x2: the 2-GPU rerun with today's kernel, one rank
# per GPU: P3 synaptic weak scaling (100,000 cells per GPU) and strong scaling (100,000 cells,
# overlap on and off), busyring weak (10,000 per GPU) and strong; rasters against one rank.
R=$OUT; cp .devcarry/cmdF.sh $R/cmd.sh; nvidia-smi -L > $R/gpus.txt
OUT=$R SIM_BUDGET_S=150 SIM_RESERVE_S=20 SIM_ONLY='p3syn_weak100000|p3syn_strong100000|ring_weak10000_|ring_strong10000' timeout 170 bash scripts/gpu/sim-scaling.sh gpu 2>&1 | tail -20 | tee $R/run.log
cd $R && tar czf sim_gpu.tgz sim_gpu && rm -rf sim_gpu
