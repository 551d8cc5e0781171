# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Run by ctest (see CMakeLists.txt): cmake -DKT_BUILD_DIR=… -DKT_CONSUMER_SOURCE_DIR=…
#   -DWORK_DIR=… [-DKT_GENERATOR=… -DKT_CXX_COMPILER=… -DKT_BUILD_TYPE=… -DKT_SANITIZERS=…]
#   -P run_consumer.cmake
# Installs the KeepTrying build into WORK_DIR/prefix and builds and runs the consumer project
# against that prefix only, as another project on this machine would.
cmake_minimum_required(VERSION 3.21)

foreach(_var KT_BUILD_DIR KT_CONSUMER_SOURCE_DIR WORK_DIR)
    if(NOT ${_var})
        message(FATAL_ERROR "run_consumer.cmake: ${_var} is not set")
    endif()
endforeach()
if(NOT KT_GENERATOR)
    set(KT_GENERATOR Ninja)
endif()
if(NOT KT_BUILD_TYPE)
    set(KT_BUILD_TYPE Debug)
endif()

set(_prefix ${WORK_DIR}/prefix)
set(_build ${WORK_DIR}/build)
# Start clean, so nothing from an earlier run can make the test pass.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

message(STATUS "Installing ${KT_BUILD_DIR} into ${_prefix}")
execute_process(
    COMMAND ${CMAKE_COMMAND} --install ${KT_BUILD_DIR} --prefix ${_prefix}
    COMMAND_ERROR_IS_FATAL ANY)

set(_configure_args
    -S ${KT_CONSUMER_SOURCE_DIR}
    -B ${_build}
    -G ${KT_GENERATOR}
    -DCMAKE_BUILD_TYPE=${KT_BUILD_TYPE}
    -DCMAKE_PREFIX_PATH=${_prefix}
    # Only the install may provide KeepTrying: no user or system package registry.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(KT_CXX_COMPILER)
    list(APPEND _configure_args -DCMAKE_CXX_COMPILER=${KT_CXX_COMPILER})
endif()
if(KT_MAKE_PROGRAM)
    list(APPEND _configure_args -DCMAKE_MAKE_PROGRAM=${KT_MAKE_PROGRAM})
endif()
if(KT_SANITIZERS)
    # A sanitized library needs a sanitized executable (the runtime must come first).
    set(_flags "-fsanitize=${KT_SANITIZERS} -fno-omit-frame-pointer")
    list(APPEND _configure_args
        "-DCMAKE_CXX_FLAGS=${_flags}"
        "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${KT_SANITIZERS}")
endif()

message(STATUS "Configuring the consumer in ${_build}")
execute_process(COMMAND ${CMAKE_COMMAND} ${_configure_args} COMMAND_ERROR_IS_FATAL ANY)

message(STATUS "Building the consumer")
execute_process(COMMAND ${CMAKE_COMMAND} --build ${_build} COMMAND_ERROR_IS_FATAL ANY)

# The consumer must have found the installed package, not a build or source tree.
file(STRINGS ${_build}/CMakeCache.txt _kt_dir REGEX "^KeepTrying_DIR:")
string(REGEX REPLACE "^KeepTrying_DIR:[A-Z]+=" "" _kt_dir "${_kt_dir}")
file(REAL_PATH "${_kt_dir}" _kt_dir)
file(REAL_PATH "${_prefix}" _prefix_real)
string(FIND "${_kt_dir}" "${_prefix_real}/" _at)
if(NOT _at EQUAL 0)
    message(FATAL_ERROR "KeepTrying was found in '${_kt_dir}', not in the install prefix")
endif()

message(STATUS "Running the consumer")
execute_process(
    COMMAND ${_build}/keeptrying-consumer
    OUTPUT_VARIABLE _output
    ERROR_VARIABLE _errors
    COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "consumer says: ${_output}${_errors}")
if(NOT _output MATCHES "consumer ok")
    message(FATAL_ERROR "The consumer did not report success")
endif()
