# Makefile fragment: the reductions over samples (an extension of this library) compared with
# metatensor-operations, through the Python module metatensor_go (python/) on our library and
# the reference's Python package. Included by the top-level Makefile, whose variables it uses
# (BUILD, LIB, REFERENCE_VENV).

REDUCE_OPERATIONS_VERSION := 0.5.0

.PHONY: reduce-compare
test: reduce-compare
reduce-compare: lib reference $(BUILD)/reduce-operations.stamp
	METATENSOR_GO_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath python) \
		$(REFERENCE_VENV)/bin/python tests/reduce/compare_operations.py

# metatensor-operations in the reference's virtual environment, once.
$(BUILD)/reduce-operations.stamp: | reference
	$(REFERENCE_VENV)/bin/pip install --quiet --disable-pip-version-check \
		metatensor-operations==$(REDUCE_OPERATIONS_VERSION)
	touch $@
