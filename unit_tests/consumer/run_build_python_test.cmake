# hinesbatch-build-sim --python from an install tree, as a user runs it: .mod files of theirs
# (MOD_FILES: a synapse that keeps state per connection, an artificial cell) with the
# library's defaults into the Python package; a script with it first on the path runs each
# of CONFIGS (a network of MECHANISMS' each, in order; lists separated by '|') with the
# raster of SIM (a hinesbatch-sim built with the same .mod files) on the same config.
string(REPLACE "|" ";" MOD_FILES "${MOD_FILES}")
string(REPLACE "|" ";" CONFIGS "${CONFIGS}")
string(REPLACE "|" ";" MECHANISMS "${MECHANISMS}")
list(LENGTH MOD_FILES mods)
math(EXPR files "${mods} + 5")
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${HINESBATCH_BINARY_DIR} --prefix ${WORK_DIR}/install
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
execute_process(COMMAND ${WORK_DIR}/install/bin/hinesbatch-build-sim --python -o ${WORK_DIR}/py
                        -n mine -j 2 ${MOD_FILES}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc OR NOT EXISTS ${WORK_DIR}/py/hinesbatch/__init__.py)
  message(FATAL_ERROR "hinesbatch-build-sim --python failed (${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "hinesbatch-build-sim: ${WORK_DIR}/py/hinesbatch \\(catalogue mine: ${files} files; PYTHONPATH=${WORK_DIR}/py\\)")
  message(FATAL_ERROR "unexpected report:\n${out}")
endif()
foreach(config mechanism IN ZIP_LISTS CONFIGS MECHANISMS)
  execute_process(COMMAND ${SIM} ${config} --quiet --set tstop=30 --backend host
                          --spikes ${WORK_DIR}/reference_spikes.txt
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${SIM} failed (${rc}):\n${out}\n${err}")
  endif()
  execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/use_built_python.py ${WORK_DIR}/py
                          ${config} ${WORK_DIR}/reference_spikes.txt ${mechanism}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "the script with the built package failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endforeach()
