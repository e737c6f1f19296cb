# The default catalogue in include/hinesbatch/simulation/nmodl/defaults, regenerated from
# mechanisms/default into WORK_DIR and compared file by file. To update it:
#   /usr/bin/python3 tools/nmodl/hinesbatch-nmodl -o include/hinesbatch/simulation/nmodl/defaults \
#     --catalogue defaults mechanisms/default/*.mod
file(REMOVE_RECURSE ${WORK_DIR})
file(GLOB mods ${SOURCE_DIR}/mechanisms/default/*.mod)
list(SORT mods)
execute_process(COMMAND ${PYTHON} ${COMPILER} -o ${WORK_DIR} --catalogue defaults ${mods}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hinesbatch-nmodl failed (${rc})")
endif()
set(kept ${SOURCE_DIR}/include/hinesbatch/simulation/nmodl/defaults)
file(GLOB generated RELATIVE ${WORK_DIR} ${WORK_DIR}/*)
file(GLOB in_tree RELATIVE ${kept} ${kept}/*)
list(SORT generated)
list(SORT in_tree)
if(NOT generated STREQUAL in_tree)
  message(FATAL_ERROR "the default catalogue's files differ: generated '${generated}', "
                      "in the tree '${in_tree}'")
endif()
foreach(f IN LISTS generated)
  file(READ ${WORK_DIR}/${f} a)
  file(READ ${kept}/${f} b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${kept}/${f} is not what tools/nmodl makes of mechanisms/default: "
                        "regenerate it (see this script's first lines)")
  endif()
endforeach()
message(STATUS "default catalogue current: ${generated}")
