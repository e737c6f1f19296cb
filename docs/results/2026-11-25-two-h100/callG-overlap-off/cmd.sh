SIM_OVERLAP=off SIM_BUDGET_S=60 SIM_RESERVE_S=10 SIM_ONLY='p3syn_weak100000|ring_weak10000_|ring_strong10000' bash scripts/gpu/sim-scaling.sh gpu   (same machine as call F, warm; pack of call F)
