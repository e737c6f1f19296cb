// The default catalogue's simulation on the Cuda backend, compiled once here (see the
// extern declarations at the end of impl/simulation.hpp); one file a backend, so that
// the backends compile side by side.
#include "hinesbatch/simulation/impl/simulation.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
template class hinesbatch::NetworkSimulation<Kokkos::Cuda>;
#endif
