# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Every relative link and picture in README.md and docs/*.md names a file or folder that
# exists: the README is short and sends readers to docs/ and examples/, so a moved file must
# not leave a dead link. Run: cmake -DSOURCE_DIR=<tree> -P check_links.cmake
if(NOT SOURCE_DIR)
    message(FATAL_ERROR "check_links.cmake: pass -DSOURCE_DIR=<source tree>")
endif()
file(GLOB _docs "${SOURCE_DIR}/docs/*.md")
set(_broken "")
set(_count 0)
foreach(_md "${SOURCE_DIR}/README.md" ${_docs})
    file(READ "${_md}" _text)
    get_filename_component(_dir "${_md}" DIRECTORY)
    # ](target) or ](target "title"); web addresses and in-page anchors are not files.
    # Code blocks hold lambdas ("[=](qint64 …"), not links. Square brackets and semicolons
    # would bend CMake's list splitting: take them out first.
    string(REGEX REPLACE "```[^`]*```" "" _text "${_text}")
    string(REPLACE "](" "@LINK@" _text "${_text}")
    string(REGEX REPLACE "[][;]" " " _text "${_text}")
    string(REGEX MATCHALL "@LINK@[^) \"#\n]+" _links "${_text}")
    foreach(_link IN LISTS _links)
        string(SUBSTRING "${_link}" 6 -1 _target)
        if(_target MATCHES "^[a-z]+:")
            continue()
        endif()
        math(EXPR _count "${_count} + 1")
        if(NOT EXISTS "${_dir}/${_target}")
            file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_md}")
            list(APPEND _broken "${_rel}: ${_target}")
        endif()
    endforeach()
endforeach()
if(_broken)
    list(JOIN _broken "\n  " _list)
    message(FATAL_ERROR "links to nothing:\n  ${_list}")
endif()
message(STATUS "${_count} relative links, all to files that exist")
