#pragma once
// A public header that needs an internal one: check_installed_headers.cmake must refuse it.
#include <vector>

#include "hinesbatch/layouts/impl/not_installed.hpp"
