#pragma once
// HinesBatch: batched Hines (neuron cable) and tridiagonal solvers on Kokkos.
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/morphology/device_tree.hpp"
#include "hinesbatch/morphology/discretize.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/morphology/tree.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/hines_serial.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"
