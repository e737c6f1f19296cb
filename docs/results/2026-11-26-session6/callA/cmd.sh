#!/usr/bin/env bash
# Call A (binaries of main dc22ce1 = build 33f5812: hinesbatch-sim and hinesbatch-sim-l5pc of binF): the L5PC network on the 16-core host
# and on the GPU with Nsight Compute (what binds the on-chip epoch kernel with 12 generated
# mechanisms), and the mixed real cells' launch groups alone with forced team sizes (which
# shape each group of the 20,000-cell mixed network would want).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; A=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin && tar xJf $c/binS.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/a; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt; lscpu > $OUT/lscpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
R=examples/sim/real_mixed.json; M=$c/shared/morphologies
run() { local bin=$1 name=$2; shift 2
  timeout 200 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m['cells'], m['compartments'], m.get('schedule'), '|', m.get('schedule_detail'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
morph() { local s="["; for f in "$@"; do s="$s\"$M/$f.CNG.swc\","; done; echo "${s%,}]"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
# 1. L5PC network (cnic_004, 12 mechanisms), GPU and the host's 16 cores and one core.
run hinesbatch-sim-l5pc l5pc_gpu_20000 $A/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20
run hinesbatch-sim-l5pc l5pc_gpu_2000 $A/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20
OMP_NUM_THREADS=16 run hinesbatch-sim-l5pc l5pc_host16_2000 $A/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20 --backend host
OMP_NUM_THREADS=1 run hinesbatch-sim-l5pc l5pc_host1_192 $A/l5pc_cnic_net.json --set network.cells=192 --set tstop=20 --backend host
OMP_NUM_THREADS=16 run hinesbatch-sim-l5pc l5pc_host16_192 $A/l5pc_cnic_net.json --set network.cells=192 --set tstop=20 --backend host
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 150 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --section ComputeWorkloadAnalysis \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_bytes.sum,lts__t_bytes.sum \
  $c/bin/hinesbatch-sim-l5pc $A/l5pc_cnic_net.json --set network.cells=20000 --set tstop=5 --quiet > $L/ncu_l5pc_20000.txt 2> $L/ncu_l5pc_20000.err
stamp "ncu l5pc 20000 rc=$? $(grep -E 'Registers Per Thread|Achieved Occupancy|Duration|DRAM Throughput|dram__bytes_(read|write).sum ' $L/ncu_l5pc_20000.txt | tr -s ' ' | tr '\n' ';')"
# 2. The mixed network and its launch groups alone, 20 ms: the plan's shape and forced ones.
run hinesbatch-sim mixed20000 $R --set 'output={}' $(cells 20000) --set tstop=20
run hinesbatch-sim mixed20000_lanes128 $R --set 'output={}' $(cells 20000) --set tstop=20 --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=128
big="$(morph v_e_moto1 v_e_purk2 10-2012-02-09-001)"; mid="$(morph AKO60sdax2lay HSN-fluoro02 l22)"
warp="$(morph cnic_004 CT12T2)"; small="$(morph mp_ma_40984_gc2 1220882a 951118a 96ML)"
for g in big:4999 mid:5000 warp:3334 small:6667; do n=${g%%:*}; k=${g##*:}; eval ms=\$$n
  run hinesbatch-sim grp_${n} $R --set 'output={}' $(cells $k) --set tstop=20 --set "cell.morphology=$ms"
  for lanes in 32 64 128 256 512; do
    case $n:$lanes in big:32|small:256|small:512|warp:512) continue;; esac
    run hinesbatch-sim grp_${n}_team$lanes $R --set 'output={}' $(cells $k) --set tstop=20 --set "cell.morphology=$ms" --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=$lanes
  done
  case $n in warp|small) run hinesbatch-sim grp_${n}_warp $R --set 'output={}' $(cells $k) --set tstop=20 --set "cell.morphology=$ms" --set run.on_chip_kind='"warp_per_cell"' --set run.on_chip_lanes=32;; esac
done
for f in v_e_moto1 v_e_purk2 10-2012-02-09-001; do
  for lanes in 0 128 256; do
    extra=""; [ $lanes = 0 ] || extra="--set run.on_chip_kind=\"team_per_cell\" --set run.on_chip_lanes=$lanes"
    run hinesbatch-sim one_${f}_1666_$lanes $R --set 'output={}' $(cells 1666) --set tstop=20 --set "cell.morphology=$(morph $f)" $extra
  done
done
(cd $OUT && rm -f $L/*.spk && tar czf a.tgz a && rm -rf a)
