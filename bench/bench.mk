# `make bench`: times the labels functions of the C API (bench/labels_bench.c) in our library
# and in the reference, then prints one table comparing them (bench/run.sh), and writes
# $(BUILD)/bench/results.tsv. The same source is built twice, each binary with the rpath of
# its own library (DT_RPATH, so LD_LIBRARY_PATH can not swap them).
#
# BENCH_ARGS goes to both programs: `make bench BENCH_ARGS="--quick"` for a smoke test,
# `make bench BENCH_ARGS="position select"` for the cases whose id contains a pattern.
#
# Included by the top-level Makefile, which defines BUILD, LIB, INCLUDE, HEADERS, REFERENCE.

BENCH_BUILD := $(BUILD)/bench
BENCH_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror
BENCH_SOURCES := bench/labels_bench.c bench/harness.c
BENCH_ARGS ?=

.PHONY: bench

bench: lib headers reference $(BENCH_BUILD)/labels_bench-ours $(BENCH_BUILD)/labels_bench-reference
	bash bench/run.sh $(BENCH_BUILD)/labels_bench-ours $(BENCH_BUILD)/labels_bench-reference $(BENCH_BUILD) $(BENCH_ARGS)

$(BENCH_BUILD)/labels_bench-ours: $(BENCH_SOURCES) bench/harness.h $(LIB) $(addprefix $(INCLUDE)/,$(HEADERS))
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -I$(INCLUDE) -o $@ $(BENCH_SOURCES) \
		-L$(BUILD)/lib -lmetatensor -ldl -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(BUILD)/lib)

$(BENCH_BUILD)/labels_bench-reference: $(BENCH_SOURCES) bench/harness.h $(REFERENCE)/lib/libmetatensor.so
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -I$(REFERENCE)/include -o $@ $(BENCH_SOURCES) \
		-L$(REFERENCE)/lib -lmetatensor -ldl -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(REFERENCE)/lib)

# `make bench-rss`: resident memory of both libraries over 1e6 small labels cycles.
.PHONY: bench-rss
bench-rss: lib headers reference $(BENCH_BUILD)/labels_bench-ours $(BENCH_BUILD)/labels_bench-reference
	@echo "=== ours"; $(BENCH_BUILD)/labels_bench-ours --rss
	@echo "=== reference"; env -u RUST_BACKTRACE $(BENCH_BUILD)/labels_bench-reference --rss
