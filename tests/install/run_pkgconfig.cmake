# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Run by ctest (see CMakeLists.txt): cmake -DKT_BUILD_DIR=… -DKT_CONSUMER_SOURCE_DIR=…
#   -DWORK_DIR=… [-DKT_CXX_COMPILER=… -DKT_SANITIZERS=…] -P run_pkgconfig.cmake
# Installs the libraries' runtime and development components into WORK_DIR/prefix, then
# compiles, links and runs the consumer's main.cpp with no CMake at all: the compiler and
# `pkg-config --cflags --libs keeptrying-network`, with PKG_CONFIG_PATH naming the prefix.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)

find_program(_pkg_config NAMES pkg-config pkgconf REQUIRED)
if(NOT KT_CXX_COMPILER)
    set(KT_CXX_COMPILER c++)
endif()

set(_prefix ${WORK_DIR}/prefix)
kt_install(${KT_BUILD_DIR} ${_prefix} KeepTrying_Runtime KeepTrying_Development)
file(GLOB _pc_dirs "${_prefix}/lib*/pkgconfig")

set(ENV{PKG_CONFIG_PATH} "${_pc_dirs}")
execute_process(COMMAND ${_pkg_config} --cflags --libs keeptrying-network
    OUTPUT_VARIABLE _flags OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "pkg-config --cflags --libs keeptrying-network: ${_flags}")
separate_arguments(_flags UNIX_COMMAND "${_flags}")

# The flags must point into the prefix, wherever it is (the .pc finds it from its own place).
set(_include_dir "")
foreach(_flag IN LISTS _flags)
    if(_flag MATCHES "^-I(.*)$")
        set(_dir "${CMAKE_MATCH_1}")
        if(EXISTS "${_dir}/KeepTrying/retryingnetworkaccessmanager.h")
            file(REAL_PATH "${_dir}" _include_dir)
        endif()
    endif()
endforeach()
file(REAL_PATH "${_prefix}/include" _expected)
if(NOT _include_dir STREQUAL _expected)
    message(FATAL_ERROR "pkg-config names '${_include_dir}' for the headers, not '${_expected}'")
endif()
# KeepTrying::Network has no Qt Sql in it: its users link Qt Core and Network only.
if(_flags MATCHES "Qt6Sql")
    message(FATAL_ERROR "keeptrying-network.pc asks its users to link Qt Sql")
endif()

set(_compile_flags -std=c++17
    # Debian's Qt is built with -reduce-relocations: code using it must be built with -fPIC
    # (Qt's CMake targets add it; its .pc files do not).
    -fPIC)
if(KT_SANITIZERS)
    list(APPEND _compile_flags -fsanitize=${KT_SANITIZERS} -fno-omit-frame-pointer)
endif()
list(GET _pc_dirs 0 _libdir)
get_filename_component(_libdir "${_libdir}" DIRECTORY)
set(_binary ${WORK_DIR}/keeptrying-consumer)
message(STATUS "Compiling and linking the consumer with the compiler and pkg-config only")
execute_process(
    COMMAND ${KT_CXX_COMPILER} ${_compile_flags} ${KT_CONSUMER_SOURCE_DIR}/main.cpp ${_flags}
        -Wl,-rpath,${_libdir} -o ${_binary}
    COMMAND_ERROR_IS_FATAL ANY)

execute_process(COMMAND ${_binary}
    OUTPUT_VARIABLE _output ERROR_VARIABLE _errors COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "consumer says: ${_output}${_errors}")
if(NOT _output MATCHES "consumer ok")
    message(FATAL_ERROR "The consumer did not report success")
endif()
