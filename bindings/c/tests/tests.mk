# Makefile fragment building and running the C API tests in this directory.
#
# Set before including (or on the make command line):
#   MTS_TEST_INCLUDE  directory holding metatensor.h and metatensor/version.h
#   MTS_TEST_LIBDIR   directory holding libmetatensor.so
#   MTS_TEST_BUILD    where the test programs go (default: build/c-tests,
#                     relative to make's working directory)
# Optional:
#   MTS_TEST_CC       C compiler (default: cc)
#   MTS_TEST_CFLAGS   extra compiler flags; -DMTS_TEST_REFERENCE makes the tests expect the
#                     reference's behaviour where ours deliberately differs
#   MTS_TEST_RUNNER   command prefix for running each test, e.g.
#                     MTS_TEST_RUNNER="valgrind --error-exitcode=1 --leak-check=full"
#   MTS_TEST_PLAIN    the environment of a second run of every test, with our library's fast
#                     paths off (bindings/c/fastpath.h), so that the plain paths are tested as
#                     much; empty for no second run (the default against the reference)
#   MTS_TEST_POISON   the environment of a third run, where our library poisons the memory it
#                     recycles instead of reusing it (bindings/c/recycled.go), so that any read
#                     of it fails; empty for no third run (the default against the reference)
#
# Example:
#   make -f bindings/c/tests/tests.mk c-tests MTS_TEST_INCLUDE=/tmp/ref/metatensor/include \
#        MTS_TEST_LIBDIR=/tmp/ref/metatensor/lib MTS_TEST_BUILD=/tmp/ctests

# directory of this file, captured now (MAKEFILE_LIST grows with later includes)
MTS_TEST_SRCDIR := $(dir $(lastword $(MAKEFILE_LIST)))

MTS_TEST_BUILD ?= build/c-tests
MTS_TEST_CC ?= cc
MTS_TEST_RUNNER ?=
MTS_TEST_CFLAGS ?=
MTS_TEST_PLAIN ?= $(if $(findstring MTS_TEST_REFERENCE,$(MTS_TEST_CFLAGS)),,MTSGO_FASTPATHS=off)
MTS_TEST_POISON ?= $(if $(findstring MTS_TEST_REFERENCE,$(MTS_TEST_CFLAGS)),,MTSGO_RECYCLED=poison)

MTS_C_TESTS := test_errors test_version test_origins test_panic_printing test_null_arguments \
	test_labels test_labels_origin_unasked test_block test_tensormap test_keys_to test_io \
	test_loader_misuse test_reduce
# Tests of our library alone (misuse whose behaviour the reference leaves undefined): not run
# against the reference.
MTS_C_TESTS_OURS := test_misuse
# Tests of functions our library does not implement yet: built against our header (so they
# prove it compiles them) but only run against the reference, until their issue lands.
MTS_C_TESTS_PENDING :=
MTS_C_TEST_BINS := $(addprefix $(MTS_TEST_BUILD)/,$(MTS_C_TESTS) \
	$(if $(findstring MTS_TEST_REFERENCE,$(MTS_TEST_CFLAGS)),,$(MTS_C_TESTS_OURS)))
MTS_C_TEST_PENDING_BINS := $(addprefix $(MTS_TEST_BUILD)/,$(MTS_C_TESTS_PENDING))

$(MTS_C_TEST_BINS) $(MTS_C_TEST_PENDING_BINS): $(MTS_TEST_BUILD)/%: $(MTS_TEST_SRCDIR)%.c $(MTS_TEST_SRCDIR)check.h $(MTS_TEST_SRCDIR)test_array.h \
		$(MTS_TEST_SRCDIR)test_helpers.h
	@test -n "$(MTS_TEST_INCLUDE)" || { echo "tests.mk: MTS_TEST_INCLUDE is not set" >&2; exit 1; }
	@test -n "$(MTS_TEST_LIBDIR)" || { echo "tests.mk: MTS_TEST_LIBDIR is not set" >&2; exit 1; }
	@mkdir -p $(@D)
	$(MTS_TEST_CC) -std=c11 -Wall -Wextra -Werror $(MTS_TEST_CFLAGS) -I$(MTS_TEST_INCLUDE) -o $@ $< \
		-L$(MTS_TEST_LIBDIR) -lmetatensor -Wl,-rpath,$(MTS_TEST_LIBDIR) -pthread

# test_labels_origin_unasked.c is test_labels.c run another way: rebuilt when it changes.
$(MTS_TEST_BUILD)/test_labels_origin_unasked: $(MTS_TEST_SRCDIR)test_labels.c

.PHONY: c-tests
c-tests: $(MTS_C_TEST_BINS) $(MTS_C_TEST_PENDING_BINS)
	@failed=""; \
	for test in $(MTS_C_TEST_BINS); do \
		echo "=== $$test"; \
		$(MTS_TEST_RUNNER) $$test || failed="$$failed $$(basename $$test)"; \
		if [ -n "$(MTS_TEST_PLAIN)" ]; then \
			echo "=== $$test ($(MTS_TEST_PLAIN))"; \
			env $(MTS_TEST_PLAIN) $(MTS_TEST_RUNNER) $$test || failed="$$failed $$(basename $$test)($(MTS_TEST_PLAIN))"; \
		fi; \
		if [ -n "$(MTS_TEST_POISON)" ]; then \
			echo "=== $$test ($(MTS_TEST_POISON))"; \
			env $(MTS_TEST_POISON) $(MTS_TEST_RUNNER) $$test || failed="$$failed $$(basename $$test)($(MTS_TEST_POISON))"; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "C tests failed:$$failed"; exit 1; fi; \
	echo "all C tests passed"

# The misuse tests under valgrind's memcheck, with the fast paths on and off: the library must
# reject stale and foreign pointers without reading freed memory. Only these tests: on the
# others memcheck misreads the Go runtime's own stack handling (see leaks.mk). Asynchronous
# preemption is off (GODEBUG): its signal handler writes on goroutine stacks, which memcheck
# reports at random; valgrind.supp holds the two reports it makes on the Go runtime otherwise,
# explained there; valgrind_check.sh leaves aside the reports on Go-managed memory, which
# memcheck can not follow (explained there too).
MTS_VALGRIND ?= valgrind
.PHONY: c-tests-valgrind
c-tests-valgrind: $(addprefix $(MTS_TEST_BUILD)/,$(MTS_C_TESTS_OURS))
	@command -v $(MTS_VALGRIND) >/dev/null || apt-get install -y -q valgrind >/dev/null
	@for test in $^; do for fastpaths in "" off; do \
		echo "=== valgrind $$test (MTSGO_FASTPATHS=$$fastpaths)"; \
		MTSGO_FASTPATHS=$$fastpaths GODEBUG=asyncpreemptoff=1 bash $(MTS_TEST_SRCDIR)valgrind_check.sh \
			$(MTS_VALGRIND) $(MTS_TEST_SRCDIR)valgrind.supp $$test || exit 1; \
	done; done
