# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

include_guard(GLOBAL)

include(GNUInstallDirs)
include(GenerateExportHeader)
include(FeatureSummary)

set(KEEPTRYING_HELPERS_DIR ${CMAKE_CURRENT_LIST_DIR})

# keeptrying_add_library(<Name>
#     SOURCES <files…>
#     [PUBLIC_LIBRARIES <targets…>]
#     [PRIVATE_LIBRARIES <targets…>])
#
# One KeepTrying library, declared in one call from its directory (lib/<name>/), which holds
# include/KeepTrying/*.h (public) and src/ (private):
# - target KeepTrying<Name>, alias KeepTrying::<Name>, exported as KeepTrying::<Name> in
#   KeepTrying<Name>Targets, the package component <Name> (see KeepTryingConfig.cmake.in:
#   the components it needs and the Qt modules its users need are recorded here, from
#   PUBLIC_LIBRARIES, and PRIVATE_LIBRARIES too when static);
# - shared, or static with KEEPTRYING_STATIC (then KEEPTRYING_<NAME>_STATIC_DEFINE is defined
#   for the library and its users);
# - VERSION/SOVERSION from the project, hidden visibility, and a generated export header
#   KeepTrying/keeptrying_<name>_export.h (macro KEEPTRYING_<NAME>_EXPORT);
# - built with keeptrying_build_options, which is not passed on to users;
# - installed with its public headers and its export header (install components
#   KeepTrying_Runtime and KeepTrying_Development), and keeptrying-<name>.pc.
function(keeptrying_add_library name)
    cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;PUBLIC_LIBRARIES;PRIVATE_LIBRARIES")
    if(ARG_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "keeptrying_add_library(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
    endif()
    set(target KeepTrying${name})
    string(TOLOWER "keeptrying_${name}" base_name)
    string(TOUPPER "${base_name}" base_name_upper)
    set(export_header ${CMAKE_CURRENT_BINARY_DIR}/include/KeepTrying/${base_name}_export.h)

    if(KEEPTRYING_STATIC)
        add_library(${target} STATIC ${ARG_SOURCES})
        target_compile_definitions(${target} PUBLIC ${base_name_upper}_STATIC_DEFINE)
    else()
        add_library(${target} SHARED ${ARG_SOURCES})
    endif()
    add_library(KeepTrying::${name} ALIAS ${target})

    generate_export_header(${target}
        BASE_NAME ${base_name}
        EXPORT_FILE_NAME ${export_header})

    set_target_properties(${target} PROPERTIES
        EXPORT_NAME ${name}
        OUTPUT_NAME ${target}
        VERSION ${PROJECT_VERSION}
        SOVERSION ${PROJECT_VERSION_MAJOR}
        CXX_VISIBILITY_PRESET hidden
        VISIBILITY_INLINES_HIDDEN ON)

    target_include_directories(${target}
        PUBLIC
            $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
            $<BUILD_INTERFACE:${CMAKE_CURRENT_BINARY_DIR}/include>
            $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
        PRIVATE src)
    target_link_libraries(${target}
        PUBLIC ${ARG_PUBLIC_LIBRARIES}
        PRIVATE $<BUILD_INTERFACE:keeptrying_build_options> ${ARG_PRIVATE_LIBRARIES})

    # Runtime: what a program needs to run (the shared library); Development: what building
    # against it needs (headers, the .so link, static archives, the CMake and pkg-config files).
    install(TARGETS ${target} EXPORT KeepTrying${name}Targets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT KeepTrying_Runtime
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT KeepTrying_Runtime
            NAMELINK_COMPONENT KeepTrying_Development
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT KeepTrying_Development)
    install(EXPORT KeepTrying${name}Targets
        NAMESPACE KeepTrying::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/KeepTrying
        COMPONENT KeepTrying_Development)
    install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/KeepTrying
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT KeepTrying_Development)
    install(FILES ${export_header}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/KeepTrying
        COMPONENT KeepTrying_Development)

    # What a user of this library needs besides it: its PUBLIC libraries, and the PRIVATE
    # ones too when it is static (a shared library brings those itself).
    set(user_needs ${ARG_PUBLIC_LIBRARIES})
    if(KEEPTRYING_STATIC)
        list(APPEND user_needs ${ARG_PRIVATE_LIBRARIES})
    endif()
    set(needs_components "")
    set(needs_qt "")
    foreach(lib IN LISTS user_needs)
        if(lib MATCHES "^KeepTrying::(.+)$")
            set(component ${CMAKE_MATCH_1})
            get_property(declared GLOBAL PROPERTY KEEPTRYING_INSTALLED_COMPONENTS)
            if(NOT component IN_LIST declared)
                # The package config loads components in this order, dependencies first.
                message(FATAL_ERROR "keeptrying_add_library(${name}): add ${component} first")
            endif()
            list(APPEND needs_components ${component})
        elseif(lib MATCHES "^Qt6::(.+)$")
            list(APPEND needs_qt ${CMAKE_MATCH_1})
        endif()
    endforeach()
    set_property(GLOBAL APPEND PROPERTY KEEPTRYING_INSTALLED_COMPONENTS ${name})
    set_property(GLOBAL PROPERTY KEEPTRYING_COMPONENT_${name}_NEEDS ${needs_components})
    set_property(GLOBAL PROPERTY KEEPTRYING_COMPONENT_${name}_QT ${needs_qt})

    _keeptrying_write_pkgconfig(${name} "${ARG_PUBLIC_LIBRARIES}" "${ARG_PRIVATE_LIBRARIES}")
endfunction()

# pkg-config names of CMake targets: Qt6::Network -> Qt6Network (Debian's Qt ships those),
# KeepTrying::Network -> keeptrying-network.
function(_keeptrying_pkgconfig_names out)
    set(names "")
    foreach(lib IN LISTS ARGN)
        if(lib MATCHES "^Qt6::(.+)$")
            list(APPEND names Qt6${CMAKE_MATCH_1})
        elseif(lib MATCHES "^KeepTrying::(.+)$")
            string(TOLOWER "keeptrying-${CMAKE_MATCH_1}" pc)
            list(APPEND names ${pc})
        endif()
    endforeach()
    list(JOIN names " " names)
    set(${out} "${names}" PARENT_SCOPE)
endfunction()

# keeptrying-<name>.pc for builds without CMake, installed with the development files. The
# prefix is found from the file's own place (${pcfiledir}), so `cmake --install --prefix`
# anywhere gives a .pc that points into that prefix.
function(_keeptrying_write_pkgconfig name public_libraries private_libraries)
    string(TOLOWER "keeptrying-${name}" pc_name)
    string(TOUPPER "KEEPTRYING_${name}_STATIC_DEFINE" static_define)
    _keeptrying_pkgconfig_names(PC_REQUIRES ${public_libraries})
    set(PC_REQUIRES_PRIVATE "")
    set(PC_CFLAGS "")
    if(KEEPTRYING_STATIC)
        # A static archive's own dependencies must be linked by its user (pkg-config --static).
        _keeptrying_pkgconfig_names(PC_REQUIRES_PRIVATE ${private_libraries})
        set(PC_CFLAGS " -D${static_define}")
    endif()
    if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
        set(PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
        set(PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
        set(PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
    else()
        file(RELATIVE_PATH to_prefix "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
        string(REGEX REPLACE "/$" "" to_prefix "${to_prefix}")
        set(PC_PREFIX "\${pcfiledir}/${to_prefix}")
        set(PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
        set(PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
    endif()
    set(PC_NAME ${name})
    set(PC_LIBRARY KeepTrying${name})
    configure_file(${KEEPTRYING_HELPERS_DIR}/keeptrying.pc.in
        ${CMAKE_CURRENT_BINARY_DIR}/${pc_name}.pc @ONLY)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc_name}.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT KeepTrying_Development)
endfunction()

# keeptrying_part(<Name> DIRECTORY <dir> DESCRIPTION <text> [ALWAYS] [QT <Qt modules…>])
#
# One library of KeepTrying, built whether or not the apps and tests are: option
# KEEPTRYING_BUILD_<NAME>, ON by default when the Qt modules it needs are found (ALWAYS: no
# option, always built), shown by feature_summary(). Every part is a package component,
# built or not, so that find_package() can tell "not built here" from "no such component".
# A macro, so that the Qt modules found here are seen by the rest of the project.
macro(keeptrying_part _ktp_name)
    cmake_parse_arguments(_ktp "ALWAYS" "DIRECTORY;DESCRIPTION" "QT" ${ARGN})
    string(TOUPPER "KEEPTRYING_BUILD_${_ktp_name}" _ktp_option)
    set_property(GLOBAL APPEND PROPERTY KEEPTRYING_KNOWN_COMPONENTS ${_ktp_name})
    if(_ktp_QT)
        find_package(Qt6 ${KEEPTRYING_QT_MIN_VERSION} QUIET OPTIONAL_COMPONENTS ${_ktp_QT})
    endif()
    set(_ktp_missing "")
    foreach(_ktp_module IN LISTS _ktp_QT)
        if(NOT Qt6${_ktp_module}_FOUND)
            list(APPEND _ktp_missing Qt6${_ktp_module})
        endif()
    endforeach()
    if(_ktp_ALWAYS)
        set(${_ktp_option} ON)
    else()
        if(_ktp_missing)
            option(${_ktp_option} "Build KeepTrying::${_ktp_name}" OFF)
        else()
            option(${_ktp_option} "Build KeepTrying::${_ktp_name}" ON)
        endif()
    endif()
    if(${_ktp_option} AND _ktp_missing)
        message(FATAL_ERROR "${_ktp_option} is ON, but ${_ktp_missing} was not found "
                            "(install it, or configure with -D${_ktp_option}=OFF)")
    endif()
    add_feature_info(KeepTrying::${_ktp_name} ${_ktp_option} "${_ktp_DESCRIPTION}")
    if(${_ktp_option})
        add_subdirectory(${_ktp_DIRECTORY})
    endif()
endmacro()
