#!/usr/bin/env bash
# Call H: #34's real-cell networks on an H100 (every earlier measurement was on an H200).
# sim_old: session 38's binary (65cbac3, .devcarry/binA.txz), whose GPU code equals main's;
# sim_new: the on-chip launches side by side on streams of their own, their functors passed as
# kernel arguments (.devcarry/binH.txz, with its CUDA unit-test binary). Mixed 20,000 in the
# order old new new old old new new old; every other #34 network with sim_new (rasters
# against session 38's md5s); the plan's launch shapes forced; racecheck and memcheck of a
# mixed network; the whole CUDA unit suite as six shards. Two parts (cmd.sh networks, cmd.sh
# checks); `networks` runs only the simulation's unit tests after the sanitizers; `quick`
# only the mixed networks old new new old and P3.
set -u
part=${1:-all}
cd "$(dirname "$0")/../../../.."; root=$PWD; c=$root/.devcarry
[ -x $c/binA/sim_old ] || { mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA; }
[ -x $c/binH/sim_new ] || { mkdir -p $c/binH && tar xJf $c/binH.txz -C $c/binH; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/sim; U=$OUT/t; mkdir -p $T $U
nvidia-smi -L | tee $OUT/gpu.txt; nvidia-smi -q | grep -iE "Product Name|Max Clocks|SM  |Memory  |Power Limit" | head -12 >> $OUT/gpu.txt
cat $c/binA.txt $c/binH.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
sim() {  # binary name args...
  local b=$1 name=$2; shift 2; local f=$T/$name
  timeout 60 $b "$@" --quiet --set 'output={}' --metrics $f.json --spikes $f.spk > $f.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$f.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], '%.3f'%m['wall_s'])" 2>/dev/null) $(md5sum < $f.spk | cut -c1-8)"
}
OLD=$c/binA/sim_old NEW=$c/binH/sim_new
if [ $part != checks ]; then
MX="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
order="old new new old old new new old"; [ $part = quick ] && order="old new new old"
i=0; for v in $order; do i=$((i + 1)); [ $v = old ] && b=$OLD || b=$NEW; sim $b MX20-$v-$i $MX; done
python3 -c "import json; print(json.load(open('$T/MX20-new-2.json'))['schedule_detail'])" | tee -a $S
if [ $part = quick ]; then  # what a short call can hold
  sim $NEW MX2-new examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
  sim $OLD MX2-old examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
  sim $NEW P3 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
  rm -f $T/*.spk; exit 0
fi
for rep in 1; do
  sim $NEW MX2-$rep examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
  sim $NEW LG2000-$rep examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50
  sim $NEW LG200-$rep examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50
  sim $NEW MO200-$rep examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50
done
sim $OLD MX2-old examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
sim $NEW P3 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
sim $NEW RINGTEST examples/sim/ringtest.json --set network.cells=65536 --set tstop=100
sim $NEW BUSYRING examples/sim/ring.json --set network.cells=10000
rm -f $T/*.spk
(cd $OUT && tar cJf sim.tar.xz sim && rm -rf sim)
stamp "networks done"
fi
if [ $part = networks ]; then  # with the simulation's unit tests and the sanitizers only
  FILTER='*Simulation*:*OnChip*:*Schedule*:*LanePlan*'
fi
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
SMALL="examples/sim/real_mixed.json --set network.cells=36 --set network.synapses_per_cell=5 --set network.kick.cells=6 --set tstop=1.5"
for tool in racecheck memcheck; do
  timeout 75 $CS --tool $tool $NEW $SMALL --quiet --set 'output={}' --metrics $U/$tool.json > $U/$tool.log 2>&1
  stamp "$tool sim_new mixed 36 cells rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/$tool.log | tr '\n' ' ') $(python3 -c "import json; m=json.load(open('$U/$tool.json')); print(m['schedule_detail'][:150])" 2>/dev/null)"
done
N=6
for i in $(seq 0 $((N - 1))); do
  OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=$N GTEST_SHARD_INDEX=$i timeout 240 \
    $c/binH/hinesbatch_unit_tests --gtest_filter="${FILTER:-*}" --gtest_output=xml:$U/unit_$i.xml > $U/unit_$i.log 2>&1 &
done
wait
for i in $(seq 0 $((N - 1))); do stamp "shard $i/$N: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $U/unit_$i.log | tr '\n' ' ') ok $(grep -c '^\[       OK' $U/unit_$i.log)"; done
stamp "all: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $($c/binH/hinesbatch_unit_tests --gtest_filter="${FILTER:-*}" --gtest_list_tests | grep -c '^  ')"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head -20 | tee -a $S
(cd $OUT && tar cJf t.tar.xz t && rm -rf t)
stamp done
