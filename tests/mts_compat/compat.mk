# Makefile fragment: .mts compatibility, both ways, with the reference's own Python package.
# Included by the top-level Makefile, whose variables it uses (BUILD, LIB, REFERENCE,
# REFERENCE_VENV).
#
# mts-compat: files written by the reference are read by our library and the other way
# round, through the same Python scripts; ours must write the reference's bytes (run.sh).
# mts-compat-reference: the same with the reference in both roles, which shows the scripts
# pass on the reference's real behaviour.
# Upstream's test data files are used when a directory holding them is given:
#   make mts-compat MTS_COMPAT_DATA_DIR=/path/to/metatensor-core/tests

MTS_COMPAT_DATA_DIR ?=

.PHONY: mts-compat mts-compat-reference
mts-compat: lib reference
	MTS_COMPAT_DATA_DIR="$(MTS_COMPAT_DATA_DIR)" bash tests/mts_compat/run.sh \
		$(REFERENCE_VENV)/bin/python $(abspath $(LIB)) $(BUILD)/mts-compat

mts-compat-reference: reference
	MTS_COMPAT_DATA_DIR="$(MTS_COMPAT_DATA_DIR)" bash tests/mts_compat/run.sh \
		$(REFERENCE_VENV)/bin/python $(abspath $(REFERENCE)/lib/libmetatensor.so) \
		$(BUILD)/mts-compat-reference
