# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# The committed German .ts holds every string the reader's code has today, each translated:
# lupdate runs over the sources into a copy of it; a text that is new (or changed) shows up
# there unfinished. Run by ctest (ts_complete) with LUPDATE, SOURCE_DIRS, TS and WORK set.
file(MAKE_DIRECTORY "${WORK}")
set(copy "${WORK}/keeptrying-reader_de.ts")
file(COPY_FILE "${TS}" "${copy}")
# SOURCE_DIRS: the directories (or single files) lupdate reads, separated by "|" (the
# reader, and the banner's words, which the reader's .ts carries too).
string(REPLACE "|" ";" dirs "${SOURCE_DIRS}")
set(sources "")
foreach(dir IN LISTS dirs)
    if(IS_DIRECTORY "${dir}")
        file(GLOB_RECURSE found "${dir}/*.cpp" "${dir}/*.h")
    elseif(EXISTS "${dir}")
        set(found "${dir}")
    else()
        message(FATAL_ERROR "check_translations: no such source: ${dir}")
    endif()
    list(APPEND sources ${found})
endforeach()
string(REPLACE ";" "\n" list "${sources}")
file(WRITE "${WORK}/sources.lst" "${list}\n")
execute_process(
    COMMAND "${LUPDATE}" -locations none -no-obsolete "@${WORK}/sources.lst" -ts "${copy}"
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${result}):\n${output}")
endif()
file(STRINGS "${copy}" unfinished REGEX "type=\"unfinished\"")
list(LENGTH unfinished count)
if(count GREATER 0)
    # Name the texts: the <source> line before each unfinished translation.
    file(READ "${copy}" text)
    string(REPLACE ";" "," text "${text}")
    string(REGEX MATCHALL "<source>[^<]*</source>[ \n\r\t]*(<comment>[^<]*</comment>[ \n\r\t]*)?<translation type=\"unfinished\"" found "${text}")
    set(names "")
    foreach(entry IN LISTS found)
        string(REGEX REPLACE "^<source>([^<]*)</source>.*" "\\1" name "${entry}")
        string(APPEND names "  ${name}\n")
    endforeach()
    message(FATAL_ERROR "${count} reader text(s) missing from or untranslated in "
                        "resources/translations/keeptrying-reader_de.ts (run the "
                        "update_translations target, then translate them):\n${names}")
endif()
message(STATUS "every reader text is in the German .ts, translated")
