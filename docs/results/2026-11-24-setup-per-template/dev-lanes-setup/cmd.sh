# Dev machine (2 vCPUs, OMP_NUM_THREADS=2), 2026-11-24, stop 26, issue #10: the host backend's default (lanes) schedule, P3 synaptic 100,000 cells, setup only (tstop 0.1 ms): the final build (00cbc8b, build/openmp) against 301f438 (a worktree build, /tmp/wt301), alternating; /usr/bin/time -v gives the peak RSS.
NEW=build/openmp/tools/hinesbatch-sim/hinesbatch-sim; OLD=/tmp/wt301/build/openmp/tools/hinesbatch-sim/hinesbatch-sim
R=docs/results/2026-11-24-setup-per-template/dev-lanes-setup; export OMP_NUM_THREADS=2
for i in 1 2; do for b in new old; do S=$NEW; [ $b = old ] && S=$OLD
  /usr/bin/time -v $S examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=0.1 --set 'output={}' --on-chip off --metrics $R/p3syn100k_$b$i.json > $R/p3syn100k_$b$i.log 2>&1
  echo "$b$i rc=$? $(grep -E 'Maximum resident' $R/p3syn100k_$b$i.log | tr -s ' \t' ' ') $(grep -oE '"(schedule|setup[a-z_]*)": [^,]*' $R/p3syn100k_$b$i.json | tr '\n' ' ')" | tee -a $R/run.log
done; done
