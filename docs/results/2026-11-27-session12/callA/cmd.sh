#!/usr/bin/env bash
# Call A: where the generated (catalogue) path loses against the hand-written one on the P3
# network, on chip: Nsight Compute on one epoch of the warp-per-cell kernel, the same binary
# (session 11's final build) with the default catalogue and with --mechanisms builtin;
# 10,000 and 100,000 cells, rates of both first.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
tar xJf $c/binE.txz -C $c
export HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binE/hinesbatch-sim-after
run() { local name=$1; shift
  timeout 60 $B "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
P3S="examples/sim/p3_synaptic.json --set network.cells=10000 --set network.kick.cells=1000 --set tstop=10"
for k in $([ "${1:-}" = ncu ] || echo 1 2); do
  run p3_catalogue_$k $P3
  run p3_builtin_$k $P3 --mechanisms builtin
done
for v in catalogue builtin; do
  extra=""; [ $v = builtin ] && extra="--mechanisms builtin"
  timeout 240 ncu --kernel-name-base demangled --kernel-name regex:StepCellEpochOnChip --launch-skip 3 --launch-count 1 --set full \
    --csv --page details $B $P3S $extra --quiet --set 'output={}' > $L/ncu_p3_$v.csv 2> $L/ncu_p3_$v.err
  stamp "ncu $v rc=$? $(wc -l < $L/ncu_p3_$v.csv) lines"
  timeout 240 ncu --kernel-name-base demangled --kernel-name regex:StepCellEpochOnChip --launch-skip 3 --launch-count 1 \
    --metrics smsp__inst_executed.sum,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_no_instruction,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,gpu__time_duration.sum \
    $B $P3S $extra --quiet --set 'output={}' > $L/ncu_p3_${v}_metrics.txt 2>&1
  stamp "ncu metrics $v rc=$?"
done
rm -f $L/*.spk
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
