# On-chip epoch schedule of the simulation (issue #10), H100: sims with --on-chip auto (default) and off, raster identity, ncu bytes, compute-sanitizer on the new tests.
ROOT=$PWD; D=$OUT; R=/tmp/l1; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
source $ROOT/scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false
B=$ROOT/.devcarry/bin; E=$ROOT/examples/sim
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
cd $R
for m in auto off; do
  timeout 60 $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set 'output={}' --on-chip $m --metrics ring_10k_$m.json --spikes ring_10k_$m.txt > ring_10k_$m.log 2>&1; echo "ring 10k $m rc=$?"
  timeout 90 $B/hinesbatch-sim $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set 'output={}' --on-chip $m --metrics p3syn_100k_$m.json --spikes p3syn_100k_$m.txt > p3syn_100k_$m.log 2>&1; echo "p3syn 100k $m rc=$?"
done
timeout 60 $B/hinesbatch-sim $E/ring.json --set network.cells=100000 --set 'output={}' --metrics ring_100k_auto.json --spikes ring_100k_auto.txt > ring_100k_auto.log 2>&1; echo "ring 100k rc=$?"
timeout 60 $B/hinesbatch-sim $E/p3.json --set network.cells=100000 --set 'output={}' --metrics p3_100k_setup.json > p3_100k_setup.log 2>&1; echo "p3 100k rc=$?"
timeout 40 $B/hinesbatch-sim $E/p3_synaptic.json --set tstop=100 --set 'output={}' --spikes gpu_1k.txt --metrics gpu_1k.json > gpu_1k.log 2>&1
timeout 60 $B/hinesbatch-sim $E/p3_synaptic.json --set tstop=100 --set 'output={}' --backend host --spikes host_1k.txt --metrics host_1k.json > host_1k.log 2>&1
cmp gpu_1k.txt host_1k.txt && echo "1k synaptic network: GPU (on chip) = host ($(wc -l < gpu_1k.txt) spikes)"
cmp ring_10k_auto.txt ring_10k_off.txt && echo "ring 10k: on chip = cells ($(wc -l < ring_10k_auto.txt) spikes)"
cmp p3syn_100k_auto.txt p3syn_100k_off.txt && echo "p3syn 100k: on chip = cells ($(wc -l < p3syn_100k_auto.txt) spikes)"
grep -h "done:\|backend" *.log | grep -v OMP
python3 - <<'PY'
import json,glob
for f in sorted(glob.glob('*.json')):
    m=json.load(open(f)); print(f, m.get('schedule'), m.get('cell_lanes'), 'cs/s=%.3g'%m.get('compartment_steps_per_s',0), 'wall=%.2f'%m.get('wall_s',0), 'compute=%.2f'%m.get('compute_s',0), 'events_s=%.2f'%m.get('events_s',0), 'setup=%.2f'%m.get('setup_s',0), 'conn=%.2f'%m.get('setup_connections_s',0), 'spikes', m.get('spikes'), 'delivered', m.get('events_delivered'))
PY
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for m in auto off; do
  k=$([ $m = auto ] && echo StepCellEpochOnChip || echo StepCells)
  timeout 150 $ncu --kernel-name-base demangled -k regex:$k --launch-skip 3 -c 2 --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_shared_mem,sm__throughput.avg.pct_of_peak_sustained_elapsed \
    $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set tstop=5 --set 'output={}' --on-chip $m --quiet > ncu_ring_$m.csv 2> ncu_ring_$m.err; echo "ncu $m rc=$?"
  grep -E 'dram__|gpu__time|warps_active|registers|occupancy_limit|sm__throughput' ncu_ring_$m.csv | awk -F'","' '{print $(NF-2), $NF}' | head -14
done
cd $ROOT
SANITIZE_FILTER='SimulationSchedules.OnChip*:SimulationBackends.*:Simulation/*.RingRaster*:Simulation/*.SingleCell*' SANITIZE_LIMIT_S=200 OUT=$R bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | tail -4
rm -f $R/*_1k.txt; gzip -9 $R/*.txt $R/compute-sanitizer/*.log 2>/dev/null
tar czf $D/l1.tgz -C $R .
