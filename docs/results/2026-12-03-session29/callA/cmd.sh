#!/usr/bin/env bash
# Call A: shapes of the two-pass block (.devcarry/binA.txz: hinesbatch_solver_map of a tree
# with forced two-pass shapes and two variants built for this call only, r4 and p below):
# 1) the whole tridiagonal device map, both layouts, every schedule (the table's input);
# 2) the two-pass block forced to shapes, Flat, every size from 256 rows, 2^20-2^28 rows:
#    warps a block (1-16), lane-rows of 4 rows (r4), the next lane-row asked of L2 (p);
# 3) cuSPARSE's gtsv2StridedBatch (.devcarry/peers) at m = 1,000-100,000, 2^24 and 2^26 rows;
# 4) Nsight Compute on three shapes at m = 3,000 and 10,000 (2^26 rows, Flat).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binA/hinesbatch_solver_map
timeout 200 $MAP --map-families=thomas --map-backends=device \
  --benchmark_out=$M/map_device.json --benchmark_out_format=json > $M/map_device.txt 2>&1
stamp "thomas device map rc=$? $(grep -c '^Thomas' $M/map_device.txt) points, $(grep -c ERROR $M/map_device.txt) error lines"
SHAPES=1,2,4,8,16,2p,4p,8p,1r4,2r4,4r4,8r4,2r4p,4r4p
timeout 200 $MAP --map-families=thomas --map-backends=device --map-two-pass-shapes=$SHAPES \
  --benchmark_filter='^Thomas/Device/Flat/TeamPerSystemTwoPass@' \
  --benchmark_out=$M/map_two_pass_shapes.json --benchmark_out_format=json > $M/map_two_pass_shapes.txt 2>&1
stamp "two-pass shapes rc=$? $(grep -c '^Thomas' $M/map_two_pass_shapes.txt) points, $(grep -c ERROR $M/map_two_pass_shapes.txt) error lines"
timeout 100 $c/peers/cusparse_tridiagonal --type f64 --repeat 10 --methods strided \
  --pairs 1000:16777,1000:67108,2000:8388,2000:33554,3000:5592,3000:22369,5000:3355,5000:13421,8192:2048,8192:8192,10000:1677,10000:6710,20000:838,20000:3355,50000:335,50000:1342,100000:167,100000:671 \
  --out $M/cusparse_strided.json > $M/cusparse_strided.txt 2>&1
stamp "cusparse rc=$?"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
for m in 3000 10000; do
  for shape in 4 4p 4r4; do
    timeout 60 ncu --set full --kernel-name-base mangled -k regex:ThomasTwoPass -c 1 -o $OUT/ncu_m${m}_$shape \
      $MAP --map-families=thomas --map-backends=device --map-totals=26 --map-rows=$m \
      --map-two-pass-shapes=$shape \
      --benchmark_filter="^Thomas/Device/Flat/TeamPerSystemTwoPass@$shape/m:$m/" > $OUT/ncu_m${m}_$shape.txt 2>&1
    stamp "ncu m=$m $shape rc=$?"
    ncu --import $OUT/ncu_m${m}_$shape.ncu-rep --page details > $OUT/ncu_m${m}_$shape.details.txt 2>&1
  done
done
(cd $OUT && tar cJf ncu.tar.xz ncu_m* && rm -f ncu_m*)
stamp done
