# Source on the GPU machine (bash): puts the Open MPI runtime that scripts/gpu/pack-mpi.sh
# unpacked into .devcarry/mpi/ first on PATH and LD_LIBRARY_PATH and relocates it
# (OPAL_PREFIX, PMIX_INSTALL_PREFIX). Transports: shared memory only (one host), no
# single-copy (CMA) mechanism and no binding, which also work in sandboxed containers.
#   source scripts/gpu/mpi-env.sh && mpirun -np 2 hostname
# Verified on the build machine with the system Open MPI hidden (env -i, unshare + bind
# mounts). Not yet seen on the GPU machine (gVisor): if shared memory fails there, try
# `export OMPI_MCA_btl=self,tcp`; `mpirun --mca plm_base_verbose 10` shows the launcher.
_hb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_m=$_hb_root/.devcarry/mpi
if [ ! -x "$_m/usr/bin/mpirun" ]; then
  echo "mpi-env.sh: $_m/usr/bin/mpirun not found: run scripts/gpu/pack-mpi.sh and carry .devcarry/mpi" >&2
  return 1 2>/dev/null || exit 1
fi
_lib=$_m/usr/lib/x86_64-linux-gnu
export OPAL_PREFIX=$_m/usr
export OPAL_SYSCONFDIR=$_m/etc/openmpi
export PMIX_INSTALL_PREFIX=$_lib/pmix2
export PATH=$_m/usr/bin:$PATH
export LD_LIBRARY_PATH=$_lib:$_m/lib/x86_64-linux-gnu:$_lib/openmpi/lib:$_lib/pmix2/lib:$_lib/openmpi/lib/openmpi3:$_lib/pmix2/lib/pmix${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$_m/fallback
export UCX_MODULE_DIR=$_lib/ucx FI_PROVIDER_PATH=$_lib/libfabric
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_osc=^ucx,pt2pt OMPI_MCA_mtl=^ofi
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl_vader_backing_directory=/tmp
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_btl_base_warn_component_unused=0 PMIX_MCA_gds=hash
# One host, no ssh needed (the GPU image has none): the isolated launcher.
export OMPI_MCA_plm=isolated
export PMIX_MCA_pcompress_base_silence_warning=1
unset _hb_root _m _lib
