# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Helpers of the install tests (run_*.cmake, in cmake -P): what every one of them installs,
# configures and checks the same way.

foreach(_var KT_BUILD_DIR WORK_DIR)
    if(NOT ${_var})
        message(FATAL_ERROR "${CMAKE_SCRIPT_MODE_FILE}: ${_var} is not set")
    endif()
endforeach()
if(NOT KT_GENERATOR)
    set(KT_GENERATOR Ninja)
endif()
if(NOT DEFINED KT_BUILD_TYPE)
    set(KT_BUILD_TYPE Debug)
endif()

# Start clean, so nothing from an earlier run can make the test pass.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# kt_install(<build dir> <prefix> [<install component>…]): everything, or those components.
function(kt_install build_dir prefix)
    if(NOT ARGN)
        message(STATUS "Installing ${build_dir} into ${prefix}")
        execute_process(COMMAND ${CMAKE_COMMAND} --install ${build_dir} --prefix ${prefix}
            COMMAND_ERROR_IS_FATAL ANY)
    endif()
    foreach(component IN LISTS ARGN)
        message(STATUS "Installing ${build_dir}, component ${component}, into ${prefix}")
        execute_process(
            COMMAND ${CMAKE_COMMAND} --install ${build_dir} --prefix ${prefix} --component ${component}
            COMMAND_ERROR_IS_FATAL ANY)
    endforeach()
endfunction()

# kt_configure_args(<out> <source dir> <build dir> <prefix>): the arguments that configure a
# project like this build (generator, compiler, build type, sanitizers) against <prefix> only.
function(kt_configure_args out source_dir build_dir prefix)
    set(args
        -S ${source_dir}
        -B ${build_dir}
        -G ${KT_GENERATOR}
        -DCMAKE_BUILD_TYPE=${KT_BUILD_TYPE}
        -DCMAKE_PREFIX_PATH=${prefix}
        # Only the install may provide KeepTrying: no user or system package registry.
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
        -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
    if(KT_CXX_COMPILER)
        list(APPEND args -DCMAKE_CXX_COMPILER=${KT_CXX_COMPILER})
    endif()
    if(KT_MAKE_PROGRAM)
        list(APPEND args -DCMAKE_MAKE_PROGRAM=${KT_MAKE_PROGRAM})
    endif()
    if(KT_SANITIZERS)
        # A sanitized library needs a sanitized executable (the runtime must come first).
        list(APPEND args
            "-DCMAKE_CXX_FLAGS=-fsanitize=${KT_SANITIZERS} -fno-omit-frame-pointer"
            "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${KT_SANITIZERS}")
    endif()
    set(${out} ${args} PARENT_SCOPE)
endfunction()

# kt_check_libraries(<prefix> <library>…): the shared libraries, headers, CMake package and
# pkg-config file of each library are in <prefix>.
function(kt_check_libraries prefix)
    foreach(name IN LISTS ARGN)
        string(TOLOWER "${name}" lower)
        file(GLOB found
            "${prefix}/lib*/libKeepTrying${name}.so"
            "${prefix}/lib*/libKeepTrying${name}.a"
            "${prefix}/lib*/cmake/KeepTrying/KeepTrying${name}Targets.cmake"
            "${prefix}/lib*/pkgconfig/keeptrying-${lower}.pc"
            "${prefix}/include/KeepTrying/keeptrying_${lower}_export.h")
        list(LENGTH found count)
        if(NOT count EQUAL 4)
            message(FATAL_ERROR "KeepTrying::${name} is not fully installed in ${prefix}: found ${found}")
        endif()
    endforeach()
    if(NOT EXISTS "${prefix}/include/KeepTrying/retryingnetworkaccessmanager.h")
        message(FATAL_ERROR "The Network headers are not installed in ${prefix}")
    endif()
    file(GLOB config "${prefix}/lib*/cmake/KeepTrying/KeepTryingConfig*.cmake")
    list(LENGTH config count)
    if(NOT count EQUAL 2)
        message(FATAL_ERROR "KeepTryingConfig.cmake and KeepTryingConfigVersion.cmake are not in ${prefix}: ${config}")
    endif()
endfunction()

# kt_check_no_apps(<prefix>): none of the apps, their menu entry or icon is in <prefix>.
function(kt_check_no_apps prefix)
    file(GLOB_RECURSE apps
        "${prefix}/bin/*"
        "${prefix}/share/applications/*"
        "${prefix}/share/icons/*")
    if(apps)
        message(FATAL_ERROR "Applications were installed into ${prefix}: ${apps}")
    endif()
endfunction()
