#pragma once
#include "hinesbatch/simulation/impl/step_kernel.hpp"
