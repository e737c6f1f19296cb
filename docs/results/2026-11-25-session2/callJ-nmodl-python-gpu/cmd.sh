#!/usr/bin/env bash
# Call J: NMODL mechanisms on CUDA (unit tests, single compartment against NEURON's saved
# traces), CuPy/PyTorch arrays solved in place through the C interface, ncu on the big
# cells' epoch kernels. Outputs archived in one tarball.
set -u
cd "$(dirname "$0")/.."; c=$PWD/.devcarry
mkdir -p $c/bin && tar xzf $c/simbin.tgz -C $c/bin
tar xzf $c/nmodl.tgz -C $c && tar xzf $c/nmodl_ref.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$c/shared
nvidia-smi --query-gpu=name,driver_version --format=csv | tee $OUT/gpu.txt
echo "== nmodl" | tee -a $OUT/summary.txt
NMODL_CUDA_BUILD=$c/nmodlbuild OUT=$OUT timeout 200 bash scripts/gpu/nmodl-cuda.sh run > $OUT/nmodl_run.txt 2>&1
echo "nmodl-cuda rc=$? $(grep -E 'PASSED|FAILED|cases match' $OUT/nmodl_run.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/nmodlbuild/tools/nmodl/nmodl_unit_tests > $OUT/nmodl_memcheck.txt 2>&1
echo "nmodl memcheck rc=$? $(tail -1 $OUT/nmodl_memcheck.txt)" | tee -a $OUT/summary.txt
echo "== python zero copy" | tee -a $OUT/summary.txt
timeout 120 bash scripts/gpu/python-zero-copy.sh run > $OUT/pzc_run.txt 2>&1
echo "python-zero-copy rc=$? $(tail -5 $OUT/pzc_run.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
source $c/ncu-part.sh
cd $OUT && tar czf all.tgz --exclude=all.tgz . && find . -mindepth 1 -maxdepth 1 ! -name all.tgz ! -name summary.txt -exec rm -rf {} +
