# hinesbatch_add_mechanisms(<target> [CATALOGUE <name>] FILES <file.mod>...)
#
# Compiles NMODL .mod files at build time (tools/nmodl, on Blue Brain's NMODL framework)
# into headers of Kokkos device functions and a catalogue for <target>:
#
#   #include <<name>/<name>.hpp>      // struct hinesbatch::nmodl::<name>::<name>
#
# CATALOGUE defaults to "catalogue" (the compiler refuses the catalogue struct's own member
# names, such as "mechanisms", and a mechanism's name). <target> is linked (PRIVATE) to HinesBatch::catalogue,
# whose include path holds the simulation's kernels and the headers that compile them for
# the catalogue (simulation/catalogue_simulation.hpp, simulation/nmodl/single_compartment.hpp). The headers are written under
# ${CMAKE_CURRENT_BINARY_DIR}/hinesbatch_mechanisms/<name>/ and regenerated when a .mod file
# or the compiler changes. A refused file fails the build with its file, line and construct.
#
# HINESBATCH_NMODL_PYTHON: the Python with the `nmodl` module (default /usr/bin/python3,
# where Debian's python3-nmodl installs it). HINESBATCH_HAVE_NMODL tells whether it imports.

# The compiler: tools/nmodl in the source tree; the installed package config sets its
# share/hinesbatch/nmodl before including this file.
if(NOT HINESBATCH_NMODL_DIR)
  get_filename_component(HINESBATCH_NMODL_DIR "${CMAKE_CURRENT_LIST_DIR}/../tools/nmodl" ABSOLUTE)
endif()
if(NOT HINESBATCH_NMODL_PYTHON)
  if(EXISTS /usr/bin/python3)
    set(HINESBATCH_NMODL_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with the nmodl module")
  else()
    find_program(HINESBATCH_NMODL_PYTHON python3)
  endif()
endif()
if(NOT DEFINED HINESBATCH_HAVE_NMODL)
  execute_process(COMMAND ${HINESBATCH_NMODL_PYTHON} -c "import nmodl"
                  RESULT_VARIABLE _hb_nmodl_rc OUTPUT_QUIET ERROR_QUIET)
  if(_hb_nmodl_rc EQUAL 0)
    set(HINESBATCH_HAVE_NMODL ON)
  else()
    set(HINESBATCH_HAVE_NMODL OFF)
  endif()
endif()

function(hinesbatch_add_mechanisms target)
  cmake_parse_arguments(ARG "" "CATALOGUE" "FILES" ${ARGN})
  if(NOT ARG_FILES)
    message(FATAL_ERROR "hinesbatch_add_mechanisms(${target}): no FILES")
  endif()
  if(NOT ARG_CATALOGUE)
    set(ARG_CATALOGUE catalogue)
  endif()
  if(NOT HINESBATCH_HAVE_NMODL)
    message(FATAL_ERROR "hinesbatch_add_mechanisms(${target}): ${HINESBATCH_NMODL_PYTHON} "
                        "cannot import nmodl (Debian: python3-nmodl; or set HINESBATCH_NMODL_PYTHON)")
  endif()
  set(root ${CMAKE_CURRENT_BINARY_DIR}/hinesbatch_mechanisms)
  set(dir ${root}/${ARG_CATALOGUE})
  set(files "")
  # The headers (one per file, named after it, and the catalogue's) are byproducts: Ninja
  # and Make then rebuild exactly the objects whose generated headers changed.
  set(headers ${dir}/${ARG_CATALOGUE}.hpp ${dir}/${ARG_CATALOGUE}.json)
  foreach(f IN LISTS ARG_FILES)
    get_filename_component(abs ${f} ABSOLUTE)
    get_filename_component(stem ${f} NAME_WLE)
    list(APPEND files ${abs})
    list(APPEND headers ${dir}/${stem}.hpp)
  endforeach()
  file(GLOB compiler_sources ${HINESBATCH_NMODL_DIR}/hinesbatch-nmodl
       ${HINESBATCH_NMODL_DIR}/nmodl_kokkos/*.py)
  # The compiler leaves unchanged headers alone; the stamp records the run.
  set(stamp ${dir}/.generated)
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${headers}
    COMMAND ${HINESBATCH_NMODL_PYTHON} ${HINESBATCH_NMODL_DIR}/hinesbatch-nmodl -o ${dir}
            --catalogue ${ARG_CATALOGUE} ${files}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${files} ${compiler_sources}
    COMMENT "NMODL: catalogue ${ARG_CATALOGUE} (${target})"
    VERBATIM)
  add_custom_target(${target}_${ARG_CATALOGUE}_nmodl DEPENDS ${stamp})
  add_dependencies(${target} ${target}_${ARG_CATALOGUE}_nmodl)
  target_include_directories(${target} PRIVATE ${root})
  # The simulation's kernels, which the catalogue is compiled into (the installed
  # package's second include root; the build tree's include/).
  if(TARGET HinesBatch::catalogue)
    target_link_libraries(${target} PRIVATE HinesBatch::catalogue)
  elseif(TARGET hinesbatch_catalogue)
    target_link_libraries(${target} PRIVATE hinesbatch_catalogue)
  endif()
endfunction()

# hinesbatch_add_simulator(<target> CATALOGUE <name> FILES <file.mod>...)
#
# hinesbatch-sim with its own catalogue compiled from the .mod files (NEURON's nrnivmodl
# and its `special`; the command hinesbatch-build-sim does this for a folder of .mod files):
# its configs name those mechanisms in cell.mechanisms, network.synapse and records. Needs
# CLI11 (Debian: libcli11-dev); with an MPI (HINESBATCH_HAVE_MPI, else find_package(MPI))
# it runs over ranks. The program's sources: tools/hinesbatch-sim and tools/common in the
# source tree, share/hinesbatch/sim in the installed package.
if(NOT HINESBATCH_SIM_SOURCE_DIR)
  get_filename_component(HINESBATCH_SIM_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/../tools/hinesbatch-sim" ABSOLUTE)
  get_filename_component(HINESBATCH_SIM_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../tools/common" ABSOLUTE)
endif()
# A program of the library's sources (hinesbatch-sim, the Python module) with the catalogue
# `name` compiled from the files: the sources see it as <macro> (the catalogue's type) and
# <macro>_HEADER (its header), and HINESBATCH_VERSION.
function(hinesbatch_catalogue_program target macro name)
  hinesbatch_add_mechanisms(${target} CATALOGUE ${name} FILES ${ARGN})
  if(DEFINED HinesBatch_VERSION)
    set(version ${HinesBatch_VERSION})
  else()
    set(version ${PROJECT_VERSION})
  endif()
  target_compile_definitions(${target} PRIVATE HINESBATCH_VERSION="${version}"
    "${macro}_HEADER=<${name}/${name}.hpp>" ${macro}=hinesbatch::nmodl::${name}::${name})
endfunction()

function(hinesbatch_add_simulator target)
  cmake_parse_arguments(ARG "" "CATALOGUE" "FILES" ${ARGN})
  if(NOT ARG_CATALOGUE)
    message(FATAL_ERROR "hinesbatch_add_simulator(${target}): no CATALOGUE")
  endif()
  if(NOT TARGET CLI11::CLI11)  # imported targets are seen only where they were found
    find_package(CLI11 2 REQUIRED)
  endif()
  add_executable(${target} ${HINESBATCH_SIM_SOURCE_DIR}/main.cpp)
  target_include_directories(${target} PRIVATE ${HINESBATCH_SIM_INCLUDE_DIR})
  target_link_libraries(${target} PRIVATE HinesBatch::hinesbatch CLI11::CLI11)
  hinesbatch_catalogue_program(${target} HINESBATCH_SIM_CATALOGUE ${ARG_CATALOGUE} ${ARG_FILES})
  if(NOT DEFINED HINESBATCH_HAVE_MPI)
    find_package(MPI COMPONENTS CXX QUIET)
    set(HINESBATCH_HAVE_MPI ${MPI_CXX_FOUND})
  endif()
  if(HINESBATCH_HAVE_MPI)
    target_link_libraries(${target} PRIVATE MPI::MPI_CXX)
    target_compile_definitions(${target} PRIVATE HINESBATCH_HAVE_MPI)
  endif()
endfunction()

# hinesbatch_add_python_module(<target> CATALOGUE <name> FILES <file.mod>...)
#
# The compiled part of the Python package hinesbatch (the extension _hinesbatch) with its
# own catalogue compiled from the .mod files: scripts that import the package it belongs to
# name those mechanisms (hb.mechanism, hb.point_synapse, configs) and hb.catalogue() lists
# them. hinesbatch-build-sim --python lays the package out for a folder of .mod files. Needs
# Python's headers and pybind11 (Debian: python3-dev, pybind11-dev) and a HinesBatch built
# with its own Python module (position-independent code). The module's sources: python/src
# in the source tree, share/hinesbatch/python/src in the installed package.
if(NOT HINESBATCH_PYTHON_SOURCE_DIR)
  get_filename_component(HINESBATCH_PYTHON_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/../python/src" ABSOLUTE)
endif()
function(hinesbatch_add_python_module target)
  cmake_parse_arguments(ARG "" "CATALOGUE" "FILES" ${ARGN})
  if(NOT ARG_CATALOGUE)
    message(FATAL_ERROR "hinesbatch_add_python_module(${target}): no CATALOGUE")
  endif()
  if(NOT EXISTS ${HINESBATCH_PYTHON_SOURCE_DIR}/module.cpp)
    message(FATAL_ERROR "hinesbatch_add_python_module(${target}): this HinesBatch has no Python "
                        "module sources (${HINESBATCH_PYTHON_SOURCE_DIR}): it was built without "
                        "its Python module")
  endif()
  if(NOT COMMAND pybind11_add_module)
    if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
      set(Python_EXECUTABLE /usr/bin/python3)
    endif()
    find_package(Python 3.7 COMPONENTS Interpreter Development.Module REQUIRED)
    find_package(pybind11 2.6 CONFIG REQUIRED)
  endif()
  set(s ${HINESBATCH_PYTHON_SOURCE_DIR})
  pybind11_add_module(${target} NO_EXTRAS ${s}/module.cpp ${s}/runtime.cpp ${s}/core.cpp
                      ${s}/solvers.cpp ${s}/morphology.cpp ${s}/simulation.cpp)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME _hinesbatch)
  target_link_libraries(${target} PRIVATE HinesBatch::hinesbatch)
  hinesbatch_catalogue_program(${target} HINESBATCH_PY_CATALOGUE ${ARG_CATALOGUE} ${ARG_FILES})
  # The static libraries (HinesBatch's, Kokkos') keep their symbols inside the module.
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL")
  endif()
endfunction()
