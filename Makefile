# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Thin wrapper around CMake presets, so the two everyday commands are one word each.
#   make run    set up, build and start the reader on its built-in demo server
#   make test   set up, build (with ASan/UBSan) and run every test, then the memcheck pass
#               and a two-minute soak
#   make bench  build in Release and run the benchmarks

CMAKE ?= cmake
CTEST ?= ctest
READER_ARGS ?=

.PHONY: all setup build run test bench install clean

all: build

setup:
	@bash scripts/setup-debian.sh

build/dev/build.ninja: | setup
	$(CMAKE) --preset dev

build: setup build/dev/build.ninja
	$(CMAKE) --build --preset dev

run: build
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
	$(CMAKE) --build --preset dev --target tst_replylifetime tst_abortanddelete soak
	$(CTEST) --preset memcheck
	QT_QPA_PLATFORM=offscreen ./build/dev/tests/soak/soak --minutes 2 $(SOAK_ARGS)

build/release/build.ninja: | setup
	$(CMAKE) --preset release

bench: setup build/release/build.ninja
	$(CMAKE) --build --preset release
	./build/release/tests/benchmarks/bench_overhead

clean:
	rm -rf build
