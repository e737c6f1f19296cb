#!/usr/bin/env bash
# Call D: Nsight Compute on the Full-Interleaved two-pass kernel of call B's build
# (.devcarry/binB.txz), 8 systems a block where the rule takes them (m = 2,000 at 2^26 rows,
# 4,096 at 2^24, 100,000 at 2^28) and the block forced to 4 systems at m = 2,000, 2^26 (the
# same points' 4-system profile).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binB/hinesbatch_solver_map
prof() {  # name rows total schedule
  timeout 90 ncu --set full --kernel-name-base mangled -k regex:ThomasTwoPass -c 1 -o $OUT/ncu_$1 \
    $MAP --map-families=thomas --map-backends=device --map-totals=$3 --map-rows=$2 \
    --map-two-pass-systems=4,8 \
    --benchmark_filter="^Thomas/Device/FullInterleaved/$4/m:$2/" > $OUT/ncu_$1.txt 2>&1
  stamp "ncu $1 rc=$?"
  ncu --import $OUT/ncu_$1.ncu-rep --page details > $OUT/ncu_$1.details.txt 2>&1
}
prof m2000_s8 2000 26 TeamPerSystemTwoPass
prof m2000_s4 2000 26 'TeamPerSystemTwoPass@s4'
prof m4096_s8 4096 24 TeamPerSystemTwoPass
prof m100000_s8 100000 28 TeamPerSystemTwoPass
(cd $OUT && tar cJf ncu.tar.xz ncu_* && rm -f ncu_*)
stamp done
