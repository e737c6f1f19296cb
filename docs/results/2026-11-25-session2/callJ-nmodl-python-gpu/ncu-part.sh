# what binds the big cells' epoch kernels: ncu on the first epoch launch(es), details + stall reasons
mkdir -p $OUT/ncu
sim=$c/bin/hinesbatch-sim
ncu_run() {  # name count args...
  local name=$1 n=$2; shift 2
  timeout 200 ncu --kernel-name regex:sim_epoch_on_chip --launch-count $n --set full --page details --print-details all \
    $sim "$@" --quiet --set 'output={}' --set tstop=1 > $OUT/ncu/$name.txt 2>&1
  echo "ncu $name rc=$? $(grep -c 'sim_epoch_on_chip' $OUT/ncu/$name.txt) sections" | tee -a $OUT/summary.txt
}
ncu_run large2000 1 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100
ncu_run moto2000 1 examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=100 --set 'cell.morphology=${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc'
ncu_run mixed20000 4 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000
