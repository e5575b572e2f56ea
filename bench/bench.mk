# `make bench`: times the C API of our library and of the reference with the C programs
# bench/labels_bench.c (labels), bench/tensor_bench.c (blocks and tensor maps),
# bench/map_cycle_bench.c (building and freeing maps, step by step and summed),
# bench/map_read_bench.c (reading every block of a map made in C, used by an operation, copied
# or loaded; the first read of new copies and loads, copy or load + read + free summed, and
# copy or load + free without the read),
# bench/keys_to_sweep_bench.c (keys_to_samples and keys_to_properties over a sweep of shapes,
# the call alone and the whole pipeline from labels to freed maps) and
# bench/io_bench.c (saving and loading a 256 MiB tensor map, against a memcpy), then prints
# one table comparing them (bench/run.sh) and writes $(BUILD)/bench/results.tsv. Each program
# is built twice from the same source, each binary with the rpath of its own library
# (DT_RPATH, so LD_LIBRARY_PATH can not swap them): NAME-ours and NAME-reference.
#
# BENCH_ARGS goes to every program: `make bench BENCH_ARGS="--quick"` for a smoke test,
# `make bench BENCH_ARGS="position select"` for the cases whose id contains a pattern
# (`make bench BENCH_ARGS=tensor` for the tensor map cases, `make bench BENCH_ARGS=io_` for the
# save and load cases: a bare "io" would also match labels cases such as position_present;
# a pattern ending with '$' matches the end of an id: `BENCH_ARGS='map_build_10$$'` runs
# map_build_10 alone).
# `make bench BENCH_PROGRAMS=io_bench` builds and runs one program only. BENCH_ROUNDS (default
# 3) is the number of rounds: in each, every case runs in a process of its own on each side,
# the two sides of a case one right after the other, and the rounds' medians are compared
# (bench/run.sh).
# BENCH_MALLOC (default steady) fixes glibc's allocator thresholds in both sides' binaries, so
# that no case's time depends on what ran before it in its process; BENCH_MALLOC=default
# leaves glibc as it starts (bench/run.sh says why).
# The cases of BENCH_FASTPATH_CASES also run with their fast path off, in the same rounds, and a
# last table gives their gains (bench/fastpaths.sh); `make bench BENCH_FASTPATH_CASES=` skips it.
#
# Then `make bench` runs bench-reduce (`make bench BENCH_REDUCE=` skips it): the reductions
# over samples, which only our library has. bench/reduce_bench.c times their values pass in C
# next to a plain read of the same values (the table's ratio), once with the threads the
# library takes for large reductions and once on one thread, as the plain read;
# bench/reduce_operations.py times them from Python against metatensor-operations on the same
# numpy-backed tensor maps (10, 100 and 1,000 structures, the last the acceptance's size), in
# alternating rounds (BENCH_REDUCE_ROUNDS, default 5), and prints operations' time over ours.
# `--quick` in BENCH_ARGS makes both a smoke run. Results: $(BUILD)/bench/reduce-c.tsv,
# reduce-c-one-thread.tsv and reduce-python.tsv.
#
# Included by the top-level Makefile, which defines BUILD, LIB, INCLUDE, HEADERS, REFERENCE.

BENCH_BUILD := $(BUILD)/bench
BENCH_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror
BENCH_PROGRAMS := labels_bench tensor_bench map_cycle_bench map_read_bench keys_to_sweep_bench io_bench
BENCH_COMMON := bench/harness.c bench/bench_array.c
BENCH_COMMON_HEADERS := bench/harness.h bench/bench_array.h
BENCH_ARGS ?=
BENCH_ROUNDS ?= 3
BENCH_MALLOC ?= steady
BENCH_REDUCE ?= yes
BENCH_REDUCE_ROUNDS ?= 5
# The cases that show each fast path of our library (ID:FASTPATH): run.sh also runs them with
# that fast path off and prints their gains. A block made in C is made in Go when Go first
# needs it, so the block fast path shows in mts_block and in pipelines where Go makes the
# blocks (a map read in Go), over labels of the caller's and over labels the library owns
# (loaded). A tensor map of blocks made in C is made in C too, read in C (blocks, keys, dtype,
# info) and made in Go for any other use: the tensormap fast path shows in building and
# freeing, and in the pipelines with a read. The reads fast path answers the dtype of such a
# map, and the reads of its blocks (their gradients included), in C, as it does those of the
# blocks of a map Go read (read_all_used_N) or made (read_all_copy_N, read_all_loaded_N) once
# Go published their records, and the keys of a map Go made (keys_copy_10); the info fast path sets
# and reads its info in C. Gradients over their block's labels are added in C (gradient), also
# over labels of their own equal to the block's. The release fast path serves tensor maps made
# in Go: the results of operations, and maps made in C once Go made them (a read in Go). The
# recycle fast path reuses the Go memory of maps and labels made in C: a read in Go over new
# labels, as in the smallest keys_to pipeline. The position fast path looks rows up in C once Go
# built the labels' index.
BENCH_FASTPATH_CASES ?= create_5x3:labels create_unique_5x3:unique tensor_block_create:block \
	tensor_blocks_build_10000:block map_read_in_go_10:block map_read_in_go_10000:block \
	map_pipeline_10_loaded:block map_pipeline_10000_loaded:block \
	map_build_10:tensormap map_build_10000:tensormap map_read_10:tensormap map_read_in_go_10:tensormap \
	map_dtype_1:reads map_dtype_10:reads map_dtype_10000:reads \
	map_gradient_10:reads map_gradient_10000:reads read_all_used_10:reads read_all_copy_10:reads \
	read_all_copy_1000:reads read_all_loaded_1000:reads keys_copy_10:reads \
	map_info_1:info map_info_10:info map_set_info_1:info map_set_info_10:info \
	map_pipeline_10_gradients:gradient map_pipeline_10000_gradients:gradient \
	map_read_in_go_10:release map_read_in_go_10000:release \
	map_read_in_go_10:recycle pipeline_samples_b1_s10_c0_p1:recycle \
	position_present:position position_missing:position

BENCH_OURS := $(BENCH_PROGRAMS:%=$(BENCH_BUILD)/%-ours)
BENCH_REFERENCE := $(BENCH_PROGRAMS:%=$(BENCH_BUILD)/%-reference)

.PHONY: bench bench-reduce bench-test

# Checks bench/run.sh's table on fake programs (part of make test; no library needed).
bench-test:
	bash bench/run_test.sh

bench: lib headers reference $(BENCH_OURS) $(BENCH_REFERENCE)
	BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_MALLOC=$(BENCH_MALLOC) BENCH_FASTPATH_CASES="$(BENCH_FASTPATH_CASES)" bash bench/run.sh $(BENCH_BUILD) $(BENCH_PROGRAMS:%=$(BENCH_BUILD)/%) -- $(BENCH_ARGS)
	$(if $(BENCH_REDUCE),$(MAKE) --no-print-directory bench-reduce)

bench-reduce: lib headers $(BUILD)/reduce-operations.stamp $(BENCH_BUILD)/reduce_bench-ours
	$(BENCH_BUILD)/reduce_bench-ours $(filter --quick,$(BENCH_ARGS)) > $(BENCH_BUILD)/reduce-c.tsv
	@echo "=== values pass, the library's threads (GOMAXPROCS $${GOMAXPROCS:-unset}, $$(nproc) CPUs)"
	@sed -n '/^$$/,$$p' $(BENCH_BUILD)/reduce-c.tsv
	GOMAXPROCS=1 $(BENCH_BUILD)/reduce_bench-ours $(filter --quick,$(BENCH_ARGS)) > $(BENCH_BUILD)/reduce-c-one-thread.tsv
	@echo "=== values pass, one thread (GOMAXPROCS=1), as the plain read"
	@sed -n '/^$$/,$$p' $(BENCH_BUILD)/reduce-c-one-thread.tsv
	METATENSOR_GO_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath python) $(REFERENCE_VENV)/bin/python \
		bench/reduce_operations.py $(filter --quick,$(BENCH_ARGS)) --rounds $(BENCH_REDUCE_ROUNDS) \
		--out $(BENCH_BUILD)/reduce-python.tsv

$(BENCH_OURS) $(BENCH_BUILD)/reduce_bench-ours: $(BENCH_BUILD)/%-ours: bench/%.c $(BENCH_COMMON) $(BENCH_COMMON_HEADERS) $(LIB) \
		$(addprefix $(INCLUDE)/,$(HEADERS))
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -I$(INCLUDE) -o $@ $< $(BENCH_COMMON) \
		-L$(BUILD)/lib -lmetatensor -ldl -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(BUILD)/lib)

$(BENCH_REFERENCE): $(BENCH_BUILD)/%-reference: bench/%.c $(BENCH_COMMON) $(BENCH_COMMON_HEADERS) \
		$(REFERENCE)/lib/libmetatensor.so
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -I$(REFERENCE)/include -o $@ $< $(BENCH_COMMON) \
		-L$(REFERENCE)/lib -lmetatensor -ldl -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(REFERENCE)/lib)

# `make bench-rss`: resident memory of both libraries over 1e6 small labels cycles.
.PHONY: bench-rss
bench-rss: lib headers reference $(BENCH_BUILD)/labels_bench-ours $(BENCH_BUILD)/labels_bench-reference
	@echo "=== ours"; $(BENCH_BUILD)/labels_bench-ours --rss
	@echo "=== reference"; env -u RUST_BACKTRACE $(BENCH_BUILD)/labels_bench-reference --rss
