#!/usr/bin/env bash
# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Runs each libFuzzer target of a fuzz build for a bounded time, one after the other, and
# prints per target the executions, their rate and the crashes found.
#   run-fuzz.sh BUILD_DIR SECONDS TARGET…
# Each target starts from a copy of tests/fuzz/corpus/<target>/ and regressions/<target>/ in
# BUILD_DIR/fuzz-work/<target>/ (what it finds grows the copy, never the repository's
# corpus); crash, timeout and out-of-memory inputs land in its artifacts/ there. Exits
# non-zero when a target found anything.
set -uo pipefail

build_dir=$1
seconds=$2
shift 2
source_dir=$(cd "$(dirname "$0")/.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export QT_QPA_PLATFORM=offscreen

failures=0
summary=()
for target in "$@"; do
    binary=$build_dir/tests/fuzz/fuzz_$target
    work=$build_dir/fuzz-work/$target
    rm -rf "$work"
    mkdir -p "$work/corpus" "$work/artifacts"
    cp "$source_dir/tests/fuzz/corpus/$target/"* "$work/corpus/"
    if [ -d "$source_dir/tests/fuzz/regressions/$target" ]; then
        cp "$source_dir/tests/fuzz/regressions/$target/"* "$work/corpus/"
    fi
    echo "== fuzz_$target for ${seconds} s"
    "$binary" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
        -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
    [ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/log" | tail -1)
    time=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -1)
    found=$(find "$work/artifacts" -type f | wc -l)
    line=$(printf '%-18s %12s execs %8s exec/s %3s crashes' "$target" "${runs:-?}" "${time:-?}" "$found")
    if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
        failures=$((failures + 1))
        line="$line  (exit $status; see $work/log)"
    fi
    echo "$line"
    summary+=("$line")
done
echo
echo "== fuzz summary (${seconds} s per target)"
printf '%s\n' "${summary[@]}"
[ "$failures" -eq 0 ]
