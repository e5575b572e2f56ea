# metatensor-go. `make` generates, builds the library and every binding and runs the examples;
# `make test` runs every test of every language. Everything the build needs is installed from
# here (the reference wheel from PyPI, Go modules), never by hand.

GO ?= go
PYTHON ?= python3
CC ?= cc
BUILD := build
PREFIX ?= /usr/local

# The reference implementation the compatibility tests compare against: the newest
# metatensor-core 0.2 release on PyPI.
REFERENCE_VERSION := 0.2.6
REFERENCE_VENV := $(BUILD)/reference-venv
# A link to the installed `metatensor` package: include/, lib/libmetatensor.so.
REFERENCE := $(BUILD)/reference

LIB := $(BUILD)/lib/libmetatensor.so
INCLUDE := $(BUILD)/include
HEADERS := metatensor.h metatensor/dlpack/dlpack.h metatensor/version.h
GO_SOURCES := $(shell find bindings/c internal -name '*.go' -o -name '*.c' -o -name '*.h' 2>/dev/null) go.mod go.sum

.PHONY: all generate lib headers examples test go-test c-tests c-tests-asan c-tests-reference abi-tests install-test \
        check-generated reference install clean fuzz fuzz-test rust-tests rust-tests-leaks rust-link-tests rust-tests-asan \
        rust-package rust-reference-tests rust-reference-tests-ours

all: generate lib headers examples

generate:
	$(GO) generate ./...

lib: $(LIB)

# -soname matches the reference's, so programs linked against either load both.
$(LIB): $(GO_SOURCES)
	@mkdir -p $(@D)
	$(GO) build -buildmode=c-shared -ldflags "-extldflags -Wl,-soname,libmetatensor.so" -o $@ ./bindings/c
	@rm -f $(BUILD)/lib/libmetatensor.h

headers: $(addprefix $(INCLUDE)/,$(HEADERS))

$(INCLUDE)/%.h: bindings/c/include/%.h
	@mkdir -p $(@D)
	cp $< $@

examples: lib headers
	@mkdir -p $(BUILD)/examples
	@for example in examples/c/*.c; do \
		name=$$(basename $$example .c); \
		$(CC) -std=c11 -Wall -Wextra -Werror -I$(INCLUDE) -o $(BUILD)/examples/$$name $$example \
			-L$(BUILD)/lib -lmetatensor -Wl,-rpath,$(abspath $(BUILD)/lib) || exit 1; \
		echo "=== example $$name"; $(BUILD)/examples/$$name || exit 1; \
	done

# ---------------------------------------------------------------- tests

test: go-test rust-tests rust-tests-leaks rust-tests-asan rust-package rust-link-tests rust-reference-tests rust-reference-tests-ours c-tests c-tests-leaks c-tests-valgrind c-tests-asan c-tests-reference abi-tests install-test reference-compare mts-compat bench-test fuzz-test

# The pure-Go packages also build for a platform without fold_vector_amd64.s, and with the
# purego tag that leaves it out.
go-test:
	$(GO) test ./...
	GOARCH=arm64 CGO_ENABLED=0 $(GO) build ./internal/... ./bindings/go/...
	$(GO) vet -tags purego ./internal/core

MTS_TEST_INCLUDE := $(INCLUDE)
MTS_TEST_LIBDIR := $(abspath $(BUILD)/lib)
MTS_TEST_BUILD := $(BUILD)/c-tests
include bindings/c/tests/tests.mk
include bindings/c/tests/leaks.mk
include tests/reference/reference.mk
include tests/mts_compat/compat.mk
include tests/reduce/reduce.mk
include bench/bench.mk
# The C++ binding: its examples join `make`, its headers `make install`, cpp-tests `make test`.
include bindings/cpp/cpp.mk
$(MTS_C_TEST_BINS) $(MTS_C_TEST_PENDING_BINS): | lib headers
$(MTS_LEAKS_SELFTEST) c-tests-leaks c-tests-valgrind: | lib headers

# The C tests under AddressSanitizer, against a copy of the library built with `go build -asan`
# (its C code instrumented too): any out-of-bounds or freed memory access by the tests or by
# the library's C code fails the test. Leaks are c-tests-leaks' job.
ASAN_BUILD := $(BUILD)/c-tests-asan
c-tests-asan: headers
	$(GO) build -asan -buildmode=c-shared -ldflags "-extldflags -Wl,-soname,libmetatensor.so" \
		-o $(ASAN_BUILD)/lib/libmetatensor.so ./bindings/c
	$(MAKE) --no-print-directory -f bindings/c/tests/tests.mk c-tests \
		MTS_TEST_INCLUDE=$(INCLUDE) MTS_TEST_LIBDIR=$(abspath $(ASAN_BUILD)/lib) \
		MTS_TEST_BUILD=$(ASAN_BUILD)/tests MTS_TEST_CFLAGS="-fsanitize=address -fno-omit-frame-pointer -g" \
		MTS_TEST_RUNNER="env ASAN_OPTIONS=detect_leaks=0"

# The same C tests, pending ones included, against the reference library: this shows they
# assert the reference's real behaviour.
c-tests-reference: reference
	$(MAKE) --no-print-directory -f bindings/c/tests/tests.mk c-tests \
		MTS_C_TESTS="$(MTS_C_TESTS) $(MTS_C_TESTS_PENDING)" MTS_C_TESTS_PENDING= \
		MTS_TEST_INCLUDE=$(REFERENCE)/include MTS_TEST_LIBDIR=$(abspath $(REFERENCE)/lib) \
		MTS_TEST_BUILD=$(BUILD)/c-tests-reference MTS_TEST_RUNNER="env -u RUST_BACKTRACE" \
		MTS_TEST_CFLAGS=-DMTS_TEST_REFERENCE

# run.sh compares our header and library with the reference's; selftest.py shows each check
# fails on a deliberately broken copy of the reference header or library.
abi-tests: lib headers reference
	bash tests/abi/run.sh $(REFERENCE)/include $(REFERENCE)/lib/libmetatensor.so \
		$(INCLUDE) $(LIB) $(BUILD)/abi
	$(PYTHON) tests/abi/selftest.py $(REFERENCE)/include $(REFERENCE)/lib/libmetatensor.so $(BUILD)/abi-selftest

# Installs into a scratch prefix, then builds a program through CMake's find_package and
# through pkg-config, as a user of the installed library would.
install-test: lib headers
	rm -rf $(BUILD)/install-test
	$(MAKE) --no-print-directory install PREFIX=$(abspath $(BUILD)/install-test/prefix)
	bash tests/install/run.sh $(abspath $(BUILD)/install-test/prefix) $(abspath $(BUILD)/install-test/work)

# Runs every fuzz target of the repository in turn, FUZZTIME each (`make fuzz FUZZTIME=10m`).
# The targets are found in the test files, so a new one is run without being listed here.
# FUZZFLAGS adds flags to each run, e.g. -fuzzminimizetime=5s: minimizing a new input (60s by
# default) counts in FUZZTIME but not in the execs reported. A run that Go's fuzzing
# coordinator ends on its own deadline without a finding is tried once more (tests/fuzz/run.sh).
FUZZTIME ?= 10s
FUZZFLAGS ?=
fuzz:
	@set -e; for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' bindings gen internal | xargs -n1 dirname | sort -u); do \
		for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go); do \
			echo "=== fuzz ./$$dir $$target for $(FUZZTIME)"; \
			GO=$(GO) bash tests/fuzz/run.sh $$dir $$target $(FUZZTIME) $(FUZZFLAGS); \
		done; \
	done

# Checks tests/fuzz/run.sh on fake go commands.
fuzz-test:
	bash tests/fuzz/run_test.sh

# ---------------------------------------------------------------- rust

# The tests (unit, integration, doc) and lints of both crates, metatensor-sys and metatensor
# (with its rayon feature), against the library of `make lib` (METATENSOR_LIB_DIR), in a
# target directory under build/.
CARGO ?= cargo
RUST_ENV := CARGO_TARGET_DIR=$(abspath $(BUILD)/rust) METATENSOR_LIB_DIR=$(abspath $(BUILD)/lib)
RUST_FEATURES := --features metatensor/rayon

rust-tests: lib
	cd bindings/rust && $(RUST_ENV) $(CARGO) test --locked $(RUST_FEATURES)
	cd bindings/rust && $(RUST_ENV) $(CARGO) clippy --locked --all-targets $(RUST_FEATURES) -- -D warnings

# The tests of both crates under LeakSanitizer, preloaded (stable Rust has no -Zsanitizer): a
# leak, in the tests, the crates or the library, fails with exit status 23. Why not valgrind:
# see leaks.mk. The integration tests of both crates, and the unit tests of metatensor; the
# unit-test binary of metatensor-sys is left out: it has no test, and a binary that links
# nothing but libc crashes under the preloaded runtime at startup (its signal interceptor is
# unresolved).
LSAN_RUNTIME := $(shell $(CC) -print-file-name=liblsan.so)
LSAN_RUNNER := --config "target.'cfg(unix)'.runner = ['env', 'LD_PRELOAD=$(LSAN_RUNTIME)', 'LSAN_OPTIONS=exitcode=23']"
rust-tests-leaks: lib
	cd bindings/rust && $(RUST_ENV) $(CARGO) test --locked $(RUST_FEATURES) --test '*' $(LSAN_RUNNER)
	cd bindings/rust && $(RUST_ENV) $(CARGO) test --locked $(RUST_FEATURES) -p metatensor --lib $(LSAN_RUNNER)

# The other two ways metatensor-sys finds the library (build.rs), each running the sys crate's
# tests: pkg-config (METATENSOR_USE_PKG_CONFIG, on a `make install` into build/), and the
# `static` feature, which builds the c-archive from these sources with `go build` (no
# METATENSOR_LIB_DIR). A .pc file naming a missing directory must fail the build.
RUST_LINK_PREFIX := $(abspath $(BUILD)/rust-link/prefix)
rust-link-tests: lib headers
	$(MAKE) --no-print-directory install PREFIX=$(RUST_LINK_PREFIX) >/dev/null
	cd bindings/rust && env -u METATENSOR_LIB_DIR CARGO_TARGET_DIR=$(abspath $(BUILD)/rust-link/pkg-config) \
		METATENSOR_USE_PKG_CONFIG=1 PKG_CONFIG_PATH=$(RUST_LINK_PREFIX)/lib/pkgconfig \
		$(CARGO) test --locked -p metatensor-sys
	@mkdir -p $(BUILD)/rust-link/missing && \
		sed 's|^prefix=.*|prefix=/nonexistent|' $(RUST_LINK_PREFIX)/lib/pkgconfig/metatensor.pc > $(BUILD)/rust-link/missing/metatensor.pc
	@cd bindings/rust && if env -u METATENSOR_LIB_DIR CARGO_TARGET_DIR=$(abspath $(BUILD)/rust-link/pkg-config) \
		METATENSOR_USE_PKG_CONFIG=1 PKG_CONFIG_PATH=$(abspath $(BUILD)/rust-link/missing) \
		$(CARGO) build --locked -p metatensor-sys >$(abspath $(BUILD)/rust-link/missing.log) 2>&1; then \
		echo "rust-link-tests: a .pc file naming a missing directory was accepted"; exit 1; \
	else grep -q "can not copy /nonexistent/lib/libmetatensor.so" $(abspath $(BUILD)/rust-link/missing.log) || \
		{ cat $(abspath $(BUILD)/rust-link/missing.log); exit 1; }; fi
	cd bindings/rust && env -u METATENSOR_LIB_DIR CARGO_TARGET_DIR=$(abspath $(BUILD)/rust-link/static) \
		$(CARGO) test --locked -p metatensor-sys --features static

# `cargo package` of both crates, verified: the metatensor crate builds against the packaged
# metatensor-sys (cargo's local registry of the workspace's packages), on the library of
# `make lib`.
rust-package: lib
	cd bindings/rust && CARGO_TARGET_DIR=$(abspath $(BUILD)/rust-package) METATENSOR_LIB_DIR=$(abspath $(BUILD)/lib) \
		$(CARGO) package --locked --workspace --allow-dirty

# The tests of both crates built with AddressSanitizer (-Zsanitizer=address needs a nightly
# toolchain, which rustup installs when it is missing), against the library of `make lib`: an
# invalid access or free in the Rust code, and a leak (LeakSanitizer is part of it), fail the
# run. The library itself is not instrumented (c-tests-asan covers it); its allocations are
# still checked for leaks.
RUST_NIGHTLY ?= nightly
RUST_HOST = $(shell rustc -vV | sed -n 's/^host: //p')
rust-tests-asan: lib
	@rustup run $(RUST_NIGHTLY) rustc --version >/dev/null 2>&1 || rustup toolchain install $(RUST_NIGHTLY) --profile minimal
	cd bindings/rust && CARGO_TARGET_DIR=$(abspath $(BUILD)/rust-asan) METATENSOR_LIB_DIR=$(abspath $(BUILD)/lib) \
		RUSTFLAGS=-Zsanitizer=address ASAN_OPTIONS=detect_leaks=1 \
		rustup run $(RUST_NIGHTLY) cargo test --locked $(RUST_FEATURES) --target $(RUST_HOST) --lib --tests

# The reference's metatensor crate 0.5.1 from crates.io, built against our metatensor-sys
# ([patch.crates-io]), runs its test suite on our library, with stand-ins written by the
# reference's Python package for the data files the published crate lacks;
# bindings/rust/reference/skipped.txt lists the tests left out and why. About 90 s the first
# time (it compiles ndarray), seconds after.
rust-reference-tests: lib reference
	CARGO=$(CARGO) bash bindings/rust/reference/run.sh $(BUILD)/rust-reference $(BUILD)/lib \
		$(REFERENCE_VENV)/bin/python

# The same tests of the reference's crate (unit, integration) run on OUR metatensor crate:
# the integration tests through a path dependency on it, the unit tests appended to a scratch
# copy of its files (bindings/rust/reference/ours.sh; skipped-ours.txt lists what is left
# out). Source compatibility, shown.
rust-reference-tests-ours: lib reference
	CARGO=$(CARGO) bash bindings/rust/reference/ours.sh $(BUILD)/rust-reference-ours $(BUILD)/lib \
		$(REFERENCE_VENV)/bin/python

# Regenerates into a scratch directory and fails, printing the diff, when a committed
# generated file differs.
check-generated:
	@rm -rf $(BUILD)/_regen
	@$(GO) run ./gen -spec spec/api.yaml -root $(BUILD)/_regen
	@stale=0; for file in $$($(GO) run ./gen -list); do \
		diff -u $$file $(BUILD)/_regen/$$file || stale=1; \
	done; \
	if [ $$stale -ne 0 ]; then echo "generated files are stale: run 'go generate ./...' and commit"; exit 1; fi; \
	echo "generated files are up to date"

reference: $(REFERENCE)/lib/libmetatensor.so

$(REFERENCE)/lib/libmetatensor.so:
	@mkdir -p $(BUILD)
	$(PYTHON) -m venv $(REFERENCE_VENV)
	$(REFERENCE_VENV)/bin/pip install --quiet --disable-pip-version-check metatensor-core==$(REFERENCE_VERSION)
	ln -sfn $$($(REFERENCE_VENV)/bin/python -c 'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("metatensor").origin))') $(REFERENCE)
	@test -f $@

# ---------------------------------------------------------------- install

VERSION := $(shell sed -n 's/^version: "\(.*\)"/\1/p' spec/api.yaml)

install: lib headers
	install -d $(PREFIX)/lib $(PREFIX)/lib/pkgconfig $(PREFIX)/lib/cmake/metatensor \
		$(PREFIX)/include/metatensor/dlpack
	install -m 755 $(LIB) $(PREFIX)/lib/libmetatensor.so
	for header in $(HEADERS); do install -m 644 $(INCLUDE)/$$header $(PREFIX)/include/$$header; done
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' bindings/c/install/metatensor.pc.in \
		> $(PREFIX)/lib/pkgconfig/metatensor.pc
	sed -e 's|@VERSION@|$(VERSION)|g' bindings/c/install/metatensor-config.cmake.in \
		> $(PREFIX)/lib/cmake/metatensor/metatensor-config.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' bindings/c/install/metatensor-config-version.cmake.in \
		> $(PREFIX)/lib/cmake/metatensor/metatensor-config-version.cmake

clean:
	rm -rf $(BUILD)
