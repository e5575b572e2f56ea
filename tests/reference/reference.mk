# Makefile fragment: the reference-comparison tests. Included by the top-level Makefile, whose
# variables it uses (BUILD, INCLUDE, REFERENCE, CC).
#
# reference-compare runs the same seeded random sequences of labels operations
# (tests/reference/labels_sequence.c) through the reference library and ours and fails when
# the transcripts differ. Seeds and length can be changed on the command line, e.g.
#   make reference-compare REFERENCE_COMPARE_SEEDS="7 8" REFERENCE_COMPARE_COUNT=20000

REFERENCE_COMPARE_SEEDS ?= 1 2 3 4 5
REFERENCE_COMPARE_COUNT ?= 5000

.PHONY: reference-compare
reference-compare: lib headers reference
	LABELS_SEQUENCE_SEEDS="$(REFERENCE_COMPARE_SEEDS)" LABELS_SEQUENCE_COUNT="$(REFERENCE_COMPARE_COUNT)" \
		CC="$(CC)" bash tests/reference/run.sh $(REFERENCE)/include $(abspath $(REFERENCE)/lib) \
		$(INCLUDE) $(abspath $(BUILD)/lib) $(BUILD)/reference-compare
