# Makefile fragment: the reference-comparison tests. Included by the top-level Makefile, whose
# variables it uses (BUILD, INCLUDE, REFERENCE, CC).
#
# reference-compare runs the same seeded random sequences of labels operations
# (tests/reference/labels_sequence.c) and of block and tensor map operations
# (tests/reference/tensor_sequence.c) through the reference library and ours, and fails when
# the transcripts differ. It also counts the calls each library makes to every member of the
# arrays it is given, for a fixed list of block and tensor map operations
# (tests/reference/callback_counts.c), and fails when ours calls a member more often than the
# reference for the same operation. Seeds and lengths can be changed on the command line, and
# the tensor sequences and the counts switched off, e.g.
#   make reference-compare REFERENCE_COMPARE_SEEDS="7 8" REFERENCE_COMPARE_COUNT=20000
#   make reference-compare REFERENCE_COMPARE_TENSOR_SEEDS="9" REFERENCE_COMPARE_TENSOR_COUNT=10000
#   make reference-compare REFERENCE_COMPARE_TENSORS=0

REFERENCE_COMPARE_SEEDS ?= 1 2 3 4 5
REFERENCE_COMPARE_COUNT ?= 5000
# 1: compare the tensor sequences and the callback counts too; 0: labels only
REFERENCE_COMPARE_TENSORS ?= 1
REFERENCE_COMPARE_TENSOR_SEEDS ?= 1 2 3 4 5
REFERENCE_COMPARE_TENSOR_COUNT ?= 3000

.PHONY: reference-compare
reference-compare: lib headers reference
	LABELS_SEQUENCE_SEEDS="$(REFERENCE_COMPARE_SEEDS)" LABELS_SEQUENCE_COUNT="$(REFERENCE_COMPARE_COUNT)" \
		REFERENCE_COMPARE_TENSORS="$(REFERENCE_COMPARE_TENSORS)" \
		TENSOR_SEQUENCE_SEEDS="$(REFERENCE_COMPARE_TENSOR_SEEDS)" \
		TENSOR_SEQUENCE_COUNT="$(REFERENCE_COMPARE_TENSOR_COUNT)" \
		CC="$(CC)" bash tests/reference/run.sh $(REFERENCE)/include $(abspath $(REFERENCE)/lib) \
		$(INCLUDE) $(abspath $(BUILD)/lib) $(BUILD)/reference-compare
