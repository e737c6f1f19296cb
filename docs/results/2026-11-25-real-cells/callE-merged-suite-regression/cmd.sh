# Call E (2026-11-25, issue #34), one GPU: the final build (BlockShared keeps the device's
# whole level-0 scratch; the three step schedules as backends of one interface): the whole
# unit suite (CUDA, OpenMP, Serial) in two shards side by side, then the targets and the
# P3/busyring/ringtest regression (throughput and rasters after the refactor).
D=$OUT; R=/tmp/rE; mkdir -p $R; cp .devcarry/cmdE.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared OMP_PROC_BIND=false
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
echo "=== unit tests (CUDA, OpenMP, Serial), 2 shards" | tee -a $R/run.log
for i in 0 1; do GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=8 timeout 400 $B/hinesbatch_unit_tests --gtest_output=xml:$R/unit_tests_$i.xml > $R/unit_tests_$i.log 2>&1 & done; wait
for i in 0 1; do echo "shard $i: $(grep -E '^\[==========\] [0-9]+ tests|^\[  (PASSED|FAILED) ' $R/unit_tests_$i.log | tr '\n' ' ')" | tee -a $R/run.log; grep -E '^\[  FAILED  \]' $R/unit_tests_$i.log | head -5 | tee -a $R/run.log; done
gzip -9 $R/unit_tests_*; tar czf $D/rE.tgz -C $R .
OUT=$R SIM_BUDGET_S=100 bash scripts/gpu/sim-real-cells.sh targets regress 2>&1 | tee -a $R/run.log | tail -8
tar czf $D/rE.tgz -C $R .
