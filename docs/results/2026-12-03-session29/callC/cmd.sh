#!/usr/bin/env bash
# Call C: Nsight Compute on the map's regions whose binding limit SOLVER_MAP.md listed as not
# profiled, with call B's build (.devcarry/binB.txz, the landed source): Auto's kernel at 2^26
# rows or nodes, Flat: tridiagonal m = 3 and 24 (one thread, the warp schedule's small shapes),
# 300 and 1,000 (the warp schedule's multi-warp shapes); Hines trees of 76 (class-small-low),
# 135 (96ML), 305 (class-medium-low) and 562 (v_e_moto1) nodes. Each run: the benchmark's text
# (its label names the schedule Auto ran), the report, and its details page.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; N=$OUT/ncu; mkdir -p $N
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binB/hinesbatch_solver_map
prof() {  # prof NAME KERNELS FILTER MAP-OPTIONS... (the first KERNELS launches of the library's impl kernels)
  local name=$1 count=$2 filter=$3; shift 3
  timeout 80 ncu --set full --kernel-name-base mangled -k regex:10hinesbatch4impl -c $count -o $N/$name \
    $MAP --map-backends=device --map-totals=26 --map-reps=1 "$@" --benchmark_filter="$filter" > $N/$name.txt 2>&1
  stamp "$name rc=$? $(grep -E '^(Thomas|Hines)/' $N/$name.txt | awk '{print $NF}' | tail -1)"
  ncu --import $N/$name.ncu-rep --page details > $N/$name.details.txt 2>&1
}
for m in 3 24 300 1000; do
  prof thomas_m$m 1 "^Thomas/Device/Flat/Auto/m:$m/" --map-families=thomas --map-rows=$m
done
for t in class-small-low/n:76 real-96ML/n:135 class-medium-low/n:305 real-v_e_moto1/n:562; do
  prof hines_${t##*:} 3 "^Hines/Device/Flat/Auto/$t/" --map-families=hines --map-trees=classes,real
done
(cd $OUT && tar cJf ncu.tar.xz ncu && rm -rf ncu)
stamp done
