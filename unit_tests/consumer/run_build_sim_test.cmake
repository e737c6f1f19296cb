# hinesbatch-build-sim from an install tree, as a user runs it: a .mod file of theirs
# (a synapse that keeps state per connection) with the library's defaults into a
# hinesbatch-sim that runs a network of them; a refused .mod file stops it with its file and
# construct named; bad arguments exit 2.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${HINESBATCH_BINARY_DIR} --prefix ${WORK_DIR}/install
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
set(build_sim ${WORK_DIR}/install/bin/hinesbatch-build-sim)
execute_process(COMMAND ${build_sim} -o ${WORK_DIR}/sim -n mine -j 2 ${MOD_FILE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc OR NOT EXISTS ${WORK_DIR}/sim/hinesbatch-sim)
  message(FATAL_ERROR "hinesbatch-build-sim failed (${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "hinesbatch-build-sim: ${WORK_DIR}/sim/hinesbatch-sim \\(catalogue mine: 6 files\\)")
  message(FATAL_ERROR "unexpected report:\n${out}")
endif()
# The network of the user's synapses, with hh and pas from the defaults.
execute_process(COMMAND ${WORK_DIR}/sim/hinesbatch-sim ${CONFIG} --quiet --set tstop=30
                  --spikes ${WORK_DIR}/spikes.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "the built simulator failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${WORK_DIR}/spikes.txt spikes)
list(LENGTH spikes n)
if(n LESS 6)
  message(FATAL_ERROR "the built simulator's network gave ${n} spikes (the kicks alone give 6)")
endif()
# A refused file: named, with its construct, and nothing built.
execute_process(COMMAND ${build_sim} -o ${WORK_DIR}/bad -j 2 ${BAD_MOD_FILE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
get_filename_component(bad_name ${BAD_MOD_FILE} NAME)
if(NOT rc EQUAL 1 OR EXISTS ${WORK_DIR}/bad/hinesbatch-sim
   OR NOT "${out}${err}" MATCHES "${bad_name}:[0-9]+: error: VERBATIM")
  message(FATAL_ERROR "a refused .mod file was not named (${rc}):\n${out}\n${err}")
endif()
# Bad arguments.
foreach(args "-o" "${WORK_DIR}/no_such.mod" "--frobnicate" "-n;9lives;${MOD_FILE}")
  execute_process(COMMAND ${build_sim} ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "hinesbatch-build-sim ${args}: exit ${rc}, not 2")
  endif()
endforeach()
message(STATUS "hinesbatch-build-sim: built and ran ${WORK_DIR}/sim/hinesbatch-sim (${n} spikes)")
