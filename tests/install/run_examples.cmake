# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Run by ctest (see CMakeLists.txt): cmake -DKT_BUILD_DIR=… -DKT_EXAMPLES_DIR=… -DWORK_DIR=…
#   -DKT_EXAMPLES=<names, separated by commas> [-DKT_GENERATOR=… …] -P run_examples.cmake
# Installs the libraries' runtime and development components into WORK_DIR/prefix and
# builds each example in examples/ on its own against that prefix only, as its README
# section says a user would; each must find the installed package and answer --help.
# (The smoke tests with a server run on the examples built inside the tree: label examples.)
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)
string(REPLACE "," ";" KT_EXAMPLES "${KT_EXAMPLES}")

set(_prefix ${WORK_DIR}/prefix)
kt_install(${KT_BUILD_DIR} ${_prefix} KeepTrying_Runtime KeepTrying_Development)
file(REAL_PATH "${_prefix}" _prefix_real)

foreach(_example IN LISTS KT_EXAMPLES)
    set(_build ${WORK_DIR}/${_example})
    kt_configure_args(_args ${KT_EXAMPLES_DIR}/${_example} ${_build} ${_prefix})
    message(STATUS "Building examples/${_example} against ${_prefix}")
    execute_process(COMMAND ${CMAKE_COMMAND} ${_args} COMMAND_ERROR_IS_FATAL ANY)
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${_build} COMMAND_ERROR_IS_FATAL ANY)

    file(STRINGS ${_build}/CMakeCache.txt _kt_dir REGEX "^KeepTrying_DIR:")
    string(REGEX REPLACE "^KeepTrying_DIR:[A-Z]+=" "" _kt_dir "${_kt_dir}")
    file(REAL_PATH "${_kt_dir}" _kt_dir)
    string(FIND "${_kt_dir}" "${_prefix_real}/" _at)
    if(NOT _at EQUAL 0)
        message(FATAL_ERROR "examples/${_example} found KeepTrying in '${_kt_dir}', not in the prefix")
    endif()

    execute_process(COMMAND ${_build}/example-${_example} --help
        OUTPUT_VARIABLE _output ERROR_VARIABLE _errors COMMAND_ERROR_IS_FATAL ANY)
    if(NOT _output MATCHES "quit-after-result")
        message(FATAL_ERROR "example-${_example} --help did not list its options:\n${_output}${_errors}")
    endif()
endforeach()
