# SIMD tiles of two vectors (the new default) against one vector per tile, on the 16-core host: AVX2 and AVX-512 builds, Sequential and Multicore in the same run.
D=$OUT; R=/tmp/g5; mkdir -p $R; export OUT=$R
nproc | tee $R/run.log
CARRY=.devcarry-cpu CPU_LIMIT_S=175 timeout 560 bash scripts/gpu/cpu-simd-width.sh 2>&1 | tail -5 | tee -a $R/run.log
tar czf $D/g5.tgz -C $R .
