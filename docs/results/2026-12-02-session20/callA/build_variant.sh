#!/usr/bin/env bash
# build.sh NAME [DEFS...]: a no-MPI hinesbatch-sim from /work/wt with the on-chip bounds macros
set -eu
export PATH=/usr/bin:$PATH CUDA_ROOT=/usr NVCC_WRAPPER_DEFAULT_COMPILER=g++-11
name=$1; shift
defs="$*"
W=/work/wt; B=/work/main/build/cuda-h100; K=/work/main/.deps/install/cuda-h100
NV="$K/bin/nvcc_wrapper -DKOKKOS_DEPENDENCE -I$W/include -I$W/src -I$W/tools/common -isystem $K/include -ccbin g++-11 -Wno-deprecated-gpu-targets -O3 -DNDEBUG -expt-extended-lambda -arch=sm_90 -Xcompiler -fopenmp -std=c++17"
d=/tmp/var/$name; mkdir -p $d
cd $d
[ -f /tmp/var/main.o ] || $NV -DHINESBATCH_VERSION=\"0.1.0\" -o /tmp/var/main.o -c $W/tools/hinesbatch-sim/main.cpp
$NV $defs -Xptxas=-v -o run.o -c $W/src/simulation/run.cpp > ptxas.txt 2>&1
$NV $defs -o plan.o -c $W/src/simulation/on_chip_launch_plan.cpp
$K/bin/nvcc_wrapper -ccbin g++-11 -Wno-deprecated-gpu-targets -O3 -fopenmp -arch=sm_90 /tmp/var/main.o run.o plan.o -o hinesbatch-sim $B/src/libhinesbatch.a $K/lib/libkokkoscontainers.a $K/lib/libkokkoscore.a /usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so /usr/lib/x86_64-linux-gnu/libcudart_static.a -lpthread -ldl 2>&1 | grep -v "nvlink warning" || true
echo "$name built"
