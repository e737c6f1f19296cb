#!/usr/bin/env bash
# Call C: 8 Full-Interleaved systems a two-pass block instead of 4 (64-byte rows: half the
# cache lines per load), a build for this call only (.devcarry/binC.txz: hinesbatch_solver_map
# with p8.diff applied), against the landed build (.devcarry/binB.txz) in the same run:
# the Full-Interleaved two-pass points and the block forced to 4, 8 and 16 warps, twice each
# build, alternating.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in B C; do rm -rf $c/bin$b && mkdir -p $c/bin$b && tar xJf $c/bin$b.txz -C $c/bin$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for rep in 1 2; do
  for b in B C; do
    timeout 120 $c/bin$b/hinesbatch_solver_map --map-families=thomas --map-backends=device \
      --map-two-pass-shapes=4,8,16 \
      --benchmark_filter='^Thomas/Device/FullInterleaved/TeamPerSystemTwoPass' \
      --benchmark_out=$M/map_$b$rep.json --benchmark_out_format=json > $M/map_$b$rep.txt 2>&1
    stamp "build $b rep $rep rc=$? $(grep -c '^Thomas' $M/map_$b$rep.txt) points, $(grep -c ERROR $M/map_$b$rep.txt) error lines"
  done
done
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
