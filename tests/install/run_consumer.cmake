# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Run by ctest (see CMakeLists.txt): cmake -DKT_BUILD_DIR=… -DKT_CONSUMER_SOURCE_DIR=…
#   -DWORK_DIR=… [-DKT_GENERATOR=… -DKT_CXX_COMPILER=… -DKT_BUILD_TYPE=… -DKT_SANITIZERS=…]
#   -DKT_CONSUMER_COMPONENTS=<components> [-DKT_INSTALL_COMPONENTS=<install components>]
#   [-DKT_CONSUMER_ARGS=<more configure arguments>] [-DKT_EXPECT_ERROR=<regex>]
#   [-DKT_NOT_LOADED=<libraries>] [-DKT_REPORT_LOADED=<libraries>]   (lists: a,b,c)
#   -P run_consumer.cmake
# Installs the KeepTrying build into WORK_DIR/prefix (everything, or KT_INSTALL_COMPONENTS,
# and then checks that no app came along) and builds and runs the consumer project against
# that prefix only, as another project on this machine would. With KT_EXPECT_ERROR the
# consumer's configure must fail with output matching it. KT_NOT_LOADED: libraries (e.g.
# Qt6Widgets) the consumer's binary must not load, directly or through KeepTrying (ldd);
# KT_REPORT_LOADED: libraries whose loading is only reported.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)
# Lists come separated by commas (a semicolon would split ctest's command line).
foreach(_var KT_INSTALL_COMPONENTS KT_CONSUMER_COMPONENTS KT_CONSUMER_ARGS KT_NOT_LOADED
        KT_REPORT_LOADED)
    string(REPLACE "," ";" ${_var} "${${_var}}")
endforeach()
if(NOT KT_CONSUMER_SOURCE_DIR)
    message(FATAL_ERROR "run_consumer.cmake: KT_CONSUMER_SOURCE_DIR is not set")
endif()

set(_prefix ${WORK_DIR}/prefix)
set(_build ${WORK_DIR}/build)

kt_install(${KT_BUILD_DIR} ${_prefix} ${KT_INSTALL_COMPONENTS})
if(KT_INSTALL_COMPONENTS)
    kt_check_libraries(${_prefix} Network OfflineCopies Outbox Widgets)
    kt_check_no_apps(${_prefix})
endif()

kt_configure_args(_configure_args ${KT_CONSUMER_SOURCE_DIR} ${_build} ${_prefix})
list(JOIN KT_CONSUMER_COMPONENTS "," _components)
list(APPEND _configure_args "-DKT_CONSUMER_COMPONENTS=${_components}")
list(APPEND _configure_args ${KT_CONSUMER_ARGS})

message(STATUS "Configuring the consumer in ${_build}: ${_configure_args}")
if(KT_EXPECT_ERROR)
    execute_process(COMMAND ${CMAKE_COMMAND} ${_configure_args}
        RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_VARIABLE _output)
    message(STATUS "The consumer's configure says:\n${_output}")
    if(_result EQUAL 0)
        message(FATAL_ERROR "The consumer configured, but should have failed")
    endif()
    # CMake wraps the message at word boundaries: compare without line breaks.
    string(REGEX REPLACE "[ \n]+" " " _output "${_output}")
    if(NOT _output MATCHES "${KT_EXPECT_ERROR}")
        message(FATAL_ERROR "The consumer's configure failed without saying '${KT_EXPECT_ERROR}'")
    endif()
    return()
endif()
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

if(KT_NOT_LOADED OR KT_REPORT_LOADED)
    # ldd: what the binary loads, through KeepTrying's libraries too.
    execute_process(COMMAND ldd ${_build}/keeptrying-consumer
        OUTPUT_VARIABLE _ldd COMMAND_ERROR_IS_FATAL ANY)
    foreach(_lib IN LISTS KT_NOT_LOADED KT_REPORT_LOADED)
        if(_ldd MATCHES "lib${_lib}\\.so")
            message(STATUS "The consumer loads ${_lib}")
            if(_lib IN_LIST KT_NOT_LOADED)
                message(FATAL_ERROR "The consumer loads ${_lib}, which it did not ask for:\n${_ldd}")
            endif()
        else()
            message(STATUS "The consumer does not load ${_lib}")
        endif()
    endforeach()
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
if("OfflineCopies" IN_LIST KT_CONSUMER_COMPONENTS AND NOT _output MATCHES "offline copies kept")
    message(FATAL_ERROR "The consumer's offline-copy store did not work")
endif()
if("Outbox" IN_LIST KT_CONSUMER_COMPONENTS AND NOT _output MATCHES "outbox usable")
    message(FATAL_ERROR "The consumer's outbox did not work")
endif()
if("Widgets" IN_LIST KT_CONSUMER_COMPONENTS AND NOT _output MATCHES "banner bound")
    message(FATAL_ERROR "The consumer did not bind its banner")
endif()
