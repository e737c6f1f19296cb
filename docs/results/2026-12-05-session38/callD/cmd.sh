#!/usr/bin/env bash
# Call D: the waits-per-warp binaries (.devcarry/binB.txz). 1) host Hines solves on the
# machine's 16 cores with the batch on 4 KiB pages or asked for huge pages (thp: session 37's
# thp.cpp, built on the dev machine); 2) the real-cell networks (mixed 20,000 five times),
# P3, ringtest and busyring; 3) racecheck on v_e_moto1 at 10 um with split spines, 256 lanes.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -x $c/binB/hinesbatch-sim ] || { rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/sim; U=$OUT/t; mkdir -p $T $U
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binB.txt | tee -a $S; nproc | tee -a $S
cat /sys/kernel/mm/transparent_hugepage/enabled | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for n in 3000 700 100; do
  OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads timeout 60 $c/thp $n 24 7 both 2>&1 | grep -v WARNING | tee -a $OUT/thp.txt
done
stamp "thp done"
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
sim() {  # name args...
  local name=$1; shift; local f=$T/$name
  timeout 60 $c/binB/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $f.json --spikes $f.spk > $f.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$f.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule_detail','')[:120])" 2>/dev/null) $(md5sum < $f.spk | cut -c1-8)"
}
for rep in 1 2 3 4 5; do
  sim MX20-$rep examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
done
for rep in 1 2; do
  sim MX2-$rep examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
  sim LG2000-$rep examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50
  sim LG200-$rep examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50
  sim MO200-$rep examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50
done
sim P3 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
sim RINGTEST examples/sim/ringtest.json --set network.cells=65536 --set tstop=100
sim BUSYRING examples/sim/ring.json --set network.cells=10000
rm -f $T/*.spk
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool racecheck $c/binB/hinesbatch-sim examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=4 --set network.synapses_per_cell=2 \
  --set network.kick.cells=2 --set tstop=0.25 --set 'run.on_chip_split_spines="on"' --set run.on_chip_lanes=256 --quiet --set 'output={}' \
  --metrics $U/rc_moto.json > $U/racecheck_moto.log 2>&1
stamp "racecheck sim moto1 10 um split, 256 lanes rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/racecheck_moto.log | tr '\n' ' ') $(python3 -c "import json; m=json.load(open('$U/rc_moto.json')); print(m.get('schedule_detail','')[:100])" 2>/dev/null)"
(cd $OUT && tar cJf sim.tar.xz sim && rm -rf sim && tar cJf t.tar.xz t && rm -rf t)
stamp done
