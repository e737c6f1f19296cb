# Installs the build into a scratch prefix and imports hinesbatch from the installed
# site-packages folder (not the build tree), solving one small system there.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
set(code [=[
import numpy as np, hinesbatch, sys
assert hinesbatch.__file__.startswith(sys.argv[1]), hinesbatch.__file__
x = np.array([[1.0, 2.0]])
hinesbatch.solve_hines([-1, 0], np.array([[0.0, -1.0]]), np.array([[0.0, -1.0]]),
                       np.array([[3.0, 3.0]]), x)
assert np.allclose(np.array([[3.0, -1.0], [-1.0, 3.0]]) @ x[0], [1.0, 2.0])
print("installed hinesbatch OK:", hinesbatch.__file__)
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PREFIX}/${SITE} OMP_PROC_BIND=false
                        ${PYTHON} -c "${code}" ${PREFIX}
                WORKING_DIRECTORY ${PREFIX}  # not the build tree's python/ (sys.path[0])
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "importing the installed module failed (${rc})")
endif()
