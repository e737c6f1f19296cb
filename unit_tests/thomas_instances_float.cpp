// The Thomas drivers of the tests for float (see thomas_instances.hpp).
#define HINESBATCH_THOMAS_TEST_DEFINE_INSTANCES
#include "thomas_instances.hpp"

HINESBATCH_THOMAS_TEST_INSTANCES(, float)
