#pragma once
// A public description header that reaches the simulation's kernels through another public
// header: consumer_header_check_detects_simulation_kernels expects the check to refuse it.
#include "hinesbatch/simulation/run.hpp"
