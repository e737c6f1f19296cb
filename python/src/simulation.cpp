// The network simulator (bound in a later step).
#include "runtime.hpp"

namespace hinesbatch {
namespace python {

void bind_simulation(py::module_&) {}

}  // namespace python
}  // namespace hinesbatch
