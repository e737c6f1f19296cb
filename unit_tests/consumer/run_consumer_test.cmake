# Installs the HinesBatch build into a scratch prefix, then configures, builds and runs
# the consumer project against it with find_package(HinesBatch). The installed headers must
# include only installed headers and compile one by one (the consumer's installed_headers).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${HINESBATCH_BINARY_DIR} --prefix ${WORK_DIR}/install
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
# The public root, then the catalogue root (HinesBatch::catalogue's: the simulation's
# kernels and the two headers that compile them), whose headers also include public ones.
set(catalogue_root ${WORK_DIR}/install/share/hinesbatch/catalogue/include)
foreach(dir simulation/impl simulation/nmodl/impl simulation/catalogue_simulation.hpp
            simulation/nmodl/single_compartment.hpp)
  if(EXISTS ${WORK_DIR}/install/include/hinesbatch/${dir})
    message(FATAL_ERROR "hinesbatch/${dir} is on the public include root")
  endif()
  if(NOT EXISTS ${catalogue_root}/hinesbatch/${dir})
    message(FATAL_ERROR "hinesbatch/${dir} is not on the catalogue root ${catalogue_root}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -DINCLUDE_DIR=${WORK_DIR}/install/include
                  -P ${CMAKE_CURRENT_LIST_DIR}/check_installed_headers.cmake
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "an installed header includes one that is not installed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DINCLUDE_DIR=${catalogue_root}
                  -DOTHER_DIR=${WORK_DIR}/install/include
                  -P ${CMAKE_CURRENT_LIST_DIR}/check_installed_headers.cmake
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "a catalogue-root header includes one that is not installed (${rc})")
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
