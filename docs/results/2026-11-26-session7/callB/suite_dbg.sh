c=$PWD/.devcarry; rm -rf $c/bin && tar xJf $c/binA.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=0 OMP_NUM_THREADS=8 timeout 200 $c/bin/hinesbatch_unit_tests > $OUT/s0.txt 2>&1; echo "rc=$?" >> $OUT/s0.txt
grep -n "RUN\|OK \]\|FAILED" $OUT/s0.txt | tail -8; tail -15 $OUT/s0.txt; which gdb
