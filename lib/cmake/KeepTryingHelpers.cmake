# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

include_guard(GLOBAL)

include(GNUInstallDirs)
include(GenerateExportHeader)

# keeptrying_add_library(<Name>
#     SOURCES <files…>
#     [PUBLIC_LIBRARIES <targets…>]
#     [PRIVATE_LIBRARIES <targets…>])
#
# One KeepTrying library, declared in one call from its directory (lib/<name>/), which holds
# include/KeepTrying/*.h (public) and src/ (private):
# - target KeepTrying<Name>, alias KeepTrying::<Name>, exported as KeepTrying::<Name> in
#   KeepTryingTargets;
# - shared, or static with KEEPTRYING_STATIC (then KEEPTRYING_<NAME>_STATIC_DEFINE is defined
#   for the library and its users);
# - VERSION/SOVERSION from the project, hidden visibility, and a generated export header
#   KeepTrying/keeptrying_<name>_export.h (macro KEEPTRYING_<NAME>_EXPORT);
# - built with keeptrying_build_options, which is not passed on to users;
# - installed with its public headers and its export header.
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

    install(TARGETS ${target} EXPORT KeepTryingTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/KeepTrying
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    install(FILES ${export_header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/KeepTrying)
endfunction()
