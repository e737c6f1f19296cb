# Call S (2026-11-24, stop 27, issue #10), nvidia-h100-x1: the whole unit suite (CUDA, OpenMP, Serial) on abf5e8d (connections' CSR by counting).
D=$OUT; R=/tmp/rS; mkdir -p $R; cp .devcarry/cmdS.sh $R/cmd.sh
[ -d .devcarry/bin ] || tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
OUT=$R timeout 540 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null
tar czf $D/rS.tgz -C $R .
