#!/bin/bash
# build.sh D NAME
D=$1; N=$2
cd /work/main/build/openmp
/usr/bin/c++ -DHINESBATCH_HAVE_KOKKOSKERNELS -DKOKKOS_DEPENDENCE $DEF $EXTRA -I/work/main/include -I/work/main/unit_tests/support -isystem /work/main/.deps/install/openmp/include -O3 -DNDEBUG -fopenmp -o /tmp/pf/$N.o -c /work/main/perf_tests/solver_map.cpp && /usr/bin/c++ -O3 -DNDEBUG -fopenmp /tmp/pf/$N.o -o /tmp/pf/$N -Wl,-rpath,/usr/lib/x86_64-linux-gnu/hdf5/serial  src/libhinesbatch.a  /usr/lib/x86_64-linux-gnu/libbenchmark.so.1.7.1  src/libhinesbatch.a  /usr/lib/x86_64-linux-gnu/hdf5/serial/libhdf5.so  unit_tests/support/libhinesbatch_testing_shared_dir.a  /work/main/.deps/install/openmp/lib/libkokkoskernels.a  /work/main/.deps/install/openmp/lib/libkokkoscontainers.a  /work/main/.deps/install/openmp/lib/libkokkoscore.a  /usr/lib/x86_64-linux-gnu/libdl.a > /tmp/pf/$N.log 2>&1
