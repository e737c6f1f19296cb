#!/usr/bin/env bash
# Call F: call E's layout on chip, and in device memory (level-1 scratch) the systems' arrays
# back to back again (.devcarry/binF.txz: hinesbatch_solver_map of the working tree) against
# call B's build (.devcarry/binB.txz): call E measured its 8-system blocks in device memory
# (m = 20,000-100,000) at 0.97 of call B's. The Full-Interleaved two-pass points from 4,096
# rows (the rule's block, 4 and 8 systems forced), each build twice, alternating.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in B F; do rm -rf $c/bin$b && mkdir -p $c/bin$b && tar xJf $c/bin$b.txz -C $c/bin$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for rep in 1 2; do
  for b in B F; do
    timeout 60 $c/bin$b/hinesbatch_solver_map --map-families=thomas --map-backends=device \
      --map-two-pass-systems=4,8 --map-rows=1024,4096,5000,8192,10000,20000,50000,100000 \
      --benchmark_filter='^Thomas/Device/FullInterleaved/TeamPerSystemTwoPass' \
      --benchmark_out=$M/map_$b$rep.json --benchmark_out_format=json > $M/map_$b$rep.txt 2>&1
    stamp "build $b rep $rep rc=$? $(grep -c '^Thomas' $M/map_$b$rep.txt) points, $(grep -c ERROR $M/map_$b$rep.txt) error lines"
  done
done
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
