# Makefile fragment: .mts compatibility, both ways, with the reference's own Python package.
# Included by the top-level Makefile, whose variables it uses (BUILD, LIB, REFERENCE,
# REFERENCE_VENV).
#
# mts-compat: files written by the reference are read by our library and the other way
# round, through the same Python scripts; ours must write the reference's bytes (run.sh).
# mts-compat-reference: the same with the reference in both roles, which shows the scripts
# pass on the reference's real behaviour.
# go-compat (part of `make test`): the Go binding (bindings/go) reads the reference's files
# of mts-compat and saves them again in every way, and the reference reads what it wrote
# (go.sh).
# Upstream's test data files are used when a directory holding them is given:
#   make mts-compat MTS_COMPAT_DATA_DIR=/path/to/metatensor-core/tests

MTS_COMPAT_DATA_DIR ?=

.PHONY: mts-compat mts-compat-reference go-compat
mts-compat: lib reference
	MTS_COMPAT_DATA_DIR="$(MTS_COMPAT_DATA_DIR)" bash tests/mts_compat/run.sh \
		$(REFERENCE_VENV)/bin/python $(abspath $(LIB)) $(BUILD)/mts-compat

mts-compat-reference: reference
	MTS_COMPAT_DATA_DIR="$(MTS_COMPAT_DATA_DIR)" bash tests/mts_compat/run.sh \
		$(REFERENCE_VENV)/bin/python $(abspath $(REFERENCE)/lib/libmetatensor.so) \
		$(BUILD)/mts-compat-reference

# After mts-compat, whose reference files it reads; the Go tests that read them are skipped
# in go-test, which runs first.
test: go-compat
go-compat: mts-compat
	GO="$(GO)" bash tests/mts_compat/go.sh $(REFERENCE_VENV)/bin/python $(BUILD)/mts-compat/reference \
		$(BUILD)/mts-compat-go
