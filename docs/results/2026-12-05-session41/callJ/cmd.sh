#!/usr/bin/env bash
# Call J: what call H (session 40's plan, run this session as call 1) left open. The examples
# that hold one launch per epoch (ring, ringtest, P3) and the mixed networks with both binaries
# in A-B-B-A order, so that the streams' fork and join are measured where they cannot gain;
# compute-sanitizer (memcheck, racecheck, synccheck) on the new test beside session 40's
# `callH/cmd.sh checks` (sanitizers on a 36-cell mixed network, the whole CUDA suite in six
# shards). Binaries: .devcarry/binA.txz (sim_old, main) and binH.txz (sim_new and the unit
# tests, the branch).
set -u
d=$(cd "$(dirname "$0")" && pwd); cd "$d/../../../.."; root=$PWD; c=$root/.devcarry
[ -x $c/binA/sim_old ] || { mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA; }
[ -x $c/binH/sim_new ] || { mkdir -p $c/binH && tar xJf $c/binH.txz -C $c/binH; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/sim; U=$OUT/san; mkdir -p $T $U
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binA.txt $c/binH.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
sim() {  # binary name args...
  local b=$1 name=$2; shift 2; local f=$T/$name
  timeout 60 $b "$@" --quiet --set 'output={}' --metrics $f.json --spikes $f.spk > $f.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$f.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], '%.3f'%m['wall_s'])" 2>/dev/null) $(md5sum < $f.spk | cut -c1-8)"
}
OLD=$c/binA/sim_old NEW=$c/binH/sim_new
abba() {  # name args...: old new new old
  local name=$1; shift
  sim $OLD $name-old-1 "$@"; sim $NEW $name-new-2 "$@"; sim $NEW $name-new-3 "$@"; sim $OLD $name-old-4 "$@"
}
abba BUSYRING examples/sim/ring.json --set network.cells=10000
abba P3 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
abba RINGTEST examples/sim/ringtest.json --set network.cells=65536 --set tstop=100
abba MX20 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
abba MX2 examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
abba LG2000 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50
rm -f $T/*.spk
(cd $OUT && tar cJf sim.tar.xz sim && rm -rf sim)
stamp "networks done"
# The whole suite (session 40's checks) and, beside it, the sanitizers on the new test.
bash $root/docs/results/2026-12-05-session40/callH/cmd.sh checks &
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  timeout 120 $CS --tool $tool $c/binH/hinesbatch_unit_tests --gtest_filter='RealCells.SeveralLaunchesSideBySide*' > $U/test_$tool.log 2>&1
  stamp "$tool new test rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/test_$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $U/test_$tool.log | tr '\n' ' ')"
done
wait
(cd $OUT && tar cJf san.tar.xz san && rm -rf san)
