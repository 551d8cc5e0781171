# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Run by ctest (see CMakeLists.txt): cmake -DKT_SOURCE_DIR=… -DKT_BUILD_DIR=… -DWORK_DIR=…
#   [-DKT_GENERATOR=… -DKT_CXX_COMPILER=… -DKT_CXX_COMPILER_LAUNCHER=… -DKT_BUILD_TYPE=…]
#   -P run_library_only.cmake
# Configures a second build of this source as a project that pulls KeepTrying in gets it
# (apps and tests off), builds it and installs it whole into WORK_DIR/prefix: the prefix
# must have both libraries (KeepTrying::Widgets too) and no app. Nothing here runs, so the
# build is not sanitized.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)
if(NOT KT_SOURCE_DIR)
    message(FATAL_ERROR "run_library_only.cmake: KT_SOURCE_DIR is not set")
endif()

set(_prefix ${WORK_DIR}/prefix)
set(_build ${WORK_DIR}/build)
set(KT_SANITIZERS "")
kt_configure_args(_configure_args ${KT_SOURCE_DIR} ${_build} ${_prefix})
list(APPEND _configure_args -DKEEPTRYING_BUILD_APP=OFF -DKEEPTRYING_BUILD_TESTS=OFF)
if(KT_CXX_COMPILER_LAUNCHER)
    list(APPEND _configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${KT_CXX_COMPILER_LAUNCHER})
endif()

message(STATUS "Configuring a library-only build in ${_build}")
execute_process(COMMAND ${CMAKE_COMMAND} ${_configure_args}
    OUTPUT_VARIABLE _output ERROR_VARIABLE _output RESULT_VARIABLE _result)
message(STATUS "${_output}")
if(NOT _result EQUAL 0)
    message(FATAL_ERROR "The library-only build did not configure")
endif()
# feature_summary(): Widgets among the enabled features (which come before the disabled).
string(FIND "${_output}" "features have been enabled" _enabled)
string(FIND "${_output}" "features have been disabled" _disabled)
string(FIND "${_output}" " * KeepTrying::Widgets," _widgets)
if(_enabled LESS 0 OR _widgets LESS _enabled OR (_disabled GREATER 0 AND _widgets GREATER _disabled))
    message(FATAL_ERROR "The feature summary does not list KeepTrying::Widgets as enabled")
endif()

message(STATUS "Building it")
execute_process(COMMAND ${CMAKE_COMMAND} --build ${_build} --parallel 2 COMMAND_ERROR_IS_FATAL ANY)

kt_install(${_build} ${_prefix})
kt_check_libraries(${_prefix} Network OfflineCopies Outbox Widgets Quick)
kt_check_no_apps(${_prefix})
message(STATUS "The library-only build installed every library and no app")
