# Makefile fragment running the C API tests of tests.mk under a leak checker. Include it after
# tests.mk, with the same MTS_TEST_* variables set (see tests.mk).
#
#   c-tests-leaks           builds every test of MTS_C_TESTS with -fsanitize=leak into
#                           MTS_LEAKS_BUILD and runs it against the library in MTS_TEST_LIBDIR:
#                           a test then also fails (LeakSanitizer's exit code, 23) when memory is
#                           still allocated at exit and nothing in C memory points at it, be it
#                           lost by the test, by the library's C or cgo code, or held only by Go
#                           objects (a user array whose destroy is never called, a Go object
#                           never released). Then runs the self-test below.
#   c-tests-leaks-selftest  shows that the checker does fail on a leak, with leaks_selftest.c:
#                           quiet on a clean run, failing on a block the test loses and on
#                           labels lost with the record the library allocated through cgo.
#
# Optional:
#   MTS_LEAKS_BUILD   where the leak-checked programs go (default: $(MTS_TEST_BUILD)-leaks)
#   MTS_LEAKS_CFLAGS  the sanitizer flags (default: -fsanitize=leak -fno-omit-frame-pointer -g)
#
# Why LeakSanitizer and not valgrind: memcheck does not follow Go's goroutine stacks, which live
# in the Go heap and get reused, so on a Go c-shared library it reports invalid reads and writes
# and uninitialised values in arbitrary Go code (ours included), not only in the runtime, and how
# many depends on GC and preemption timing; it also treats the whole Go heap, garbage included,
# as roots, so memory only Go points at is "still reachable", never lost. The runtime's
# `valgrind` build tag makes memcheck 3.19 abort in its leak check. LeakSanitizer checks leaks
# only, at native speed, and does not scan the Go heap: C memory that only Go objects point at
# when the process exits counts as leaked. A test must therefore release every object it made
# before returning from main. It needs ptrace (it stops the threads to scan them), which this
# project's machines allow. No suppression is needed for the Go runtime; should one ever be,
# LSAN_OPTIONS=suppressions=FILE matches a pattern against every frame of the allocation stack,
# and the stack of what Go code allocates through cgo can hold runtime frames
# (runtime.asmcgocall), so name a C function of the runtime (x_cgo_*), never `runtime.`.

MTS_LEAKS_BUILD ?= $(MTS_TEST_BUILD)-leaks
MTS_LEAKS_CFLAGS ?= -fsanitize=leak -fno-omit-frame-pointer -g
MTS_LEAKS_ENV := env LSAN_OPTIONS=exitcode=23
MTS_LEAKS_SELFTEST := $(MTS_LEAKS_BUILD)/leaks_selftest

.PHONY: c-tests-leaks c-tests-leaks-selftest

# The tests first, so that a leak in the library is reported by the test that shows it; then
# the self-test, which shows that a pass meant something.
c-tests-leaks: $(MTS_LEAKS_SELFTEST)
	@$(MAKE) --no-print-directory -f $(MTS_TEST_SRCDIR)tests.mk c-tests \
		MTS_TEST_INCLUDE="$(MTS_TEST_INCLUDE)" MTS_TEST_LIBDIR="$(MTS_TEST_LIBDIR)" \
		MTS_TEST_BUILD="$(MTS_LEAKS_BUILD)" MTS_TEST_CC="$(MTS_TEST_CC)" \
		MTS_TEST_CFLAGS="$(MTS_TEST_CFLAGS) $(MTS_LEAKS_CFLAGS)" \
		MTS_TEST_RUNNER="$(MTS_TEST_RUNNER) $(MTS_LEAKS_ENV)"
	@$(MTS_LEAKS_RUN_SELFTEST)

c-tests-leaks-selftest: $(MTS_LEAKS_SELFTEST)
	@$(MTS_LEAKS_RUN_SELFTEST)

$(MTS_LEAKS_SELFTEST): $(MTS_TEST_SRCDIR)leaks_selftest.c $(MTS_TEST_SRCDIR)test_array.h
	@test -n "$(MTS_TEST_INCLUDE)" || { echo "leaks.mk: MTS_TEST_INCLUDE is not set" >&2; exit 1; }
	@test -n "$(MTS_TEST_LIBDIR)" || { echo "leaks.mk: MTS_TEST_LIBDIR is not set" >&2; exit 1; }
	@mkdir -p $(@D)
	$(MTS_TEST_CC) -std=c11 -Wall -Wextra -Werror $(MTS_TEST_CFLAGS) $(MTS_LEAKS_CFLAGS) \
		-I$(MTS_TEST_INCLUDE) -o $@ $< \
		-L$(MTS_TEST_LIBDIR) -lmetatensor -Wl,-rpath,$(MTS_TEST_LIBDIR) -pthread

# Each mode must exit with the expected status and print the expected lines: the clean run
# its own closing line, test-leak a leak report naming the test's function that allocated,
# library-leak a leak report with a block allocated outside the test's code (the library's C
# or cgo code: frame #1 of its stack, after the allocator, is in neither leaks_selftest.c nor
# test_array.h).
MTS_LEAKS_RUN_SELFTEST = failed=0; \
	for mode in clean test-leak library-leak; do \
		log=$(MTS_LEAKS_BUILD)/leaks_selftest-$$mode.log; \
		$(MTS_LEAKS_ENV) $(MTS_LEAKS_SELFTEST) $$mode >$$log 2>&1; status=$$?; \
		case $$mode in \
			clean) want=0; expected="its closing line"; \
				grep -q "^leaks_selftest clean: done" $$log; found=$$?;; \
			test-leak) want=23; expected="a leak allocated in lose_block_in_test"; \
				grep -q "^ *\#1 .* in lose_block_in_test " $$log; found=$$?;; \
			library-leak) want=23; expected="a leak allocated by the library"; \
				grep -E "^ *\#1 " $$log | grep -qvE "leaks_selftest\.c|test_array\.h"; found=$$?;; \
		esac; \
		if [ $$status -eq $$want ] && [ $$found -eq 0 ]; then \
			echo "leak checker self-test $$mode: exit $$status and $$expected, as expected"; \
		else \
			echo "leak checker self-test $$mode: expected exit $$want and $$expected, got exit $$status and:"; \
			sed 's/^/    /' $$log; failed=1; \
		fi; \
	done; \
	if [ $$failed -ne 0 ]; then \
		echo "the leak checker self-test failed: a leak in the library (see the clean run) or a checker that does not report leaks"; \
	fi; \
	exit $$failed
