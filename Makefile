# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Thin wrapper around CMake presets, so the two everyday commands are one word each.
#   make run    set up, build and start the reader on its built-in demo server
#   make test   set up, build (with ASan/UBSan) and run every test, then the memcheck pass
#               and a two-minute soak
#   make bench  build in Release and run the benchmarks
#   make chaos  build (with ASan/UBSan) and run 10 000 randomised fault sequences
#               (CHAOS_COUNT, CHAOS_SEED to change them; CHAOS_PRESET=release for an
#               optimised build, whose timing differs); prints "N passed, M failed"
#   make fuzz   build the libFuzzer targets (clang) and run each for FUZZ_SECONDS

CMAKE ?= cmake
CTEST ?= ctest
READER_ARGS ?=
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= retryafter faultspec demoserver wallabagjson offlinecopystore outboxrow

.PHONY: all setup setup-fuzz build run test bench chaos fuzz install clean

all: build

setup:
	@bash scripts/setup-debian.sh

build/dev/build.ninja: | setup
	$(CMAKE) --preset dev

build: setup build/dev/build.ninja
	$(CMAKE) --build --preset dev

# Only the reader and what it links: a first `make run` should not wait for every test suite.
run: setup build/dev/build.ninja
	$(CMAKE) --build --preset dev --target keeptrying-reader
	@bash scripts/run-reader.sh build/dev $(READER_ARGS)

build/test/build.ninja: | setup
	$(CMAKE) --preset test

# Then the suites ASan cannot judge (reads of freed memory inside uninstrumented Qt) run
# under valgrind memcheck in the unsanitized dev build, and the soak runs for two minutes
# there too: ASan's quarantine and shadow memory grow the RSS by themselves, which would
# hide (or fake) the growth the soak looks for. SOAK_ARGS adds options (--seed S).
SOAK_ARGS ?=
test: setup build/test/build.ninja build/dev/build.ninja
	$(CMAKE) --build --preset test
	$(CTEST) --preset test
	$(CMAKE) --build --preset dev --target tst_replylifetime tst_abortanddelete tst_signin soak
	$(CTEST) --preset memcheck
	QT_QPA_PLATFORM=offscreen ./build/dev/tests/soak/soak --minutes 2 $(SOAK_ARGS)

CHAOS_COUNT ?= 10000
CHAOS_SEED ?=
CHAOS_PRESET ?= test

chaos: setup build/$(CHAOS_PRESET)/build.ninja
	$(CMAKE) --build --preset $(CHAOS_PRESET) --target chaos_network
	QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	./build/$(CHAOS_PRESET)/tests/chaos/chaos_network --count $(CHAOS_COUNT) $(if $(CHAOS_SEED),--seed $(CHAOS_SEED))

build/release/build.ninja: | setup
	$(CMAKE) --preset release

bench: setup build/release/build.ninja
	$(CMAKE) --build --preset release
	./build/release/tests/benchmarks/bench_overhead

setup-fuzz:
	@bash scripts/setup-debian.sh fuzz

build/fuzz/build.ninja: | setup-fuzz
	$(CMAKE) --preset fuzz

# One target at a time (they share the machine), each on a copy of its corpus; prints the
# executions and crashes per target, and fails when one crashed.
fuzz: setup-fuzz build/fuzz/build.ninja
	$(CMAKE) --build --preset fuzz --target keeptrying_fuzz_targets
	@bash scripts/run-fuzz.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf build
