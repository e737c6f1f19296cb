# Installs the HinesBatch build into a scratch prefix, then configures, builds and runs
# the consumer project against it with find_package(HinesBatch). The installed headers must
# include only installed headers and compile one by one (the consumer's installed_headers).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${HINESBATCH_BINARY_DIR} --prefix ${WORK_DIR}/install
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DINCLUDE_DIR=${WORK_DIR}/install/include
                  -P ${CMAKE_CURRENT_LIST_DIR}/check_installed_headers.cmake
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "an installed header includes one that is not installed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build
                  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
                  -DCMAKE_PREFIX_PATH=${WORK_DIR}/install -DKokkos_DIR=${Kokkos_DIR}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2 RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer's solve failed (${rc})")
endif()
if(EXISTS ${WORK_DIR}/build/consumer_mechanisms)
  execute_process(COMMAND ${WORK_DIR}/build/consumer_mechanisms RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "the consumer's generated mechanisms failed (${rc})")
  endif()
endif()
