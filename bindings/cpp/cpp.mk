# Makefile fragment of the C++ binding (bindings/cpp), included by the Makefile, which it
# extends: `make` builds and runs the C++ examples, `make install` installs the C++ headers
# beside the C ones, `make test` runs cpp-tests.
#
#   cpp-tests            the GoogleTest programs of bindings/cpp/tests through ctest: plain,
#                        under AddressSanitizer + UndefinedBehaviorSanitizer, and against the
#                        reference's C++ headers and library (which shows they assert the
#                        reference's behaviour; MTS_TEST_REFERENCE marks our deliberate fixes)
#   cpp-signatures       compiles tests/signatures/signatures.cpp, every public member of the
#                        reference's 0.2.6 C++ API with its exact type, against the reference's
#                        headers and against ours
#   cpp-examples         builds and runs examples/cpp/*.cpp
#   cpp-reference-suite  the reference's own C++ test suite (Catch), from the metatensor source
#                        tree METATENSOR_SOURCE (e.g. a `git archive` of github.com/metatensor/
#                        metatensor), built by reference-suite/CMakeLists.txt against our C++
#                        headers and library, run plain and under AddressSanitizer +
#                        UndefinedBehaviorSanitizer; without METATENSOR_SOURCE it says it was
#                        skipped (CI can not fetch the source)

CPP_INCLUDE := bindings/cpp/include
CPP_HEADERS := $(shell find $(CPP_INCLUDE) -name '*.hpp' 2>/dev/null)
CPP_TESTS_DIR := bindings/cpp/tests
CPP_SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: cpp-signatures cpp-tests cpp-tests-plain cpp-tests-sanitized cpp-tests-reference cpp-examples cpp-install gtest \
        cpp-reference-suite

all: cpp-examples
test: cpp-tests cpp-reference-suite
install: cpp-install

gtest:
	@bash $(CPP_TESTS_DIR)/install-gtest.sh

# $(1): the build directory; $(2): the arguments of the configuration
define cpp_ctest
	cmake -S $(CPP_TESTS_DIR) -B $(1) -G Ninja $(2) >$(1).log || { cat $(1).log; exit 1; }
	cmake --build $(1)
	cd $(1) && ctest --output-on-failure -j2
endef

cpp-tests: cpp-signatures cpp-tests-plain cpp-tests-sanitized cpp-tests-reference

cpp-signatures: headers reference
	$(CXX) -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I$(REFERENCE)/include $(CPP_TESTS_DIR)/signatures/signatures.cpp
	$(CXX) -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I$(CPP_INCLUDE) -I$(INCLUDE) $(CPP_TESTS_DIR)/signatures/signatures.cpp

cpp-tests-plain: lib headers gtest
	$(call cpp_ctest,$(BUILD)/cpp-tests,-DMETATENSOR_LIB_DIR=$(abspath $(BUILD)/lib) -DMETATENSOR_C_INCLUDE=$(abspath $(INCLUDE)))

cpp-tests-sanitized: lib headers gtest
	$(call cpp_ctest,$(BUILD)/cpp-tests-sanitized,-DMETATENSOR_LIB_DIR=$(abspath $(BUILD)/lib) \
		-DMETATENSOR_C_INCLUDE=$(abspath $(INCLUDE)) "-DCMAKE_CXX_FLAGS=$(CPP_SANITIZERS)")

cpp-tests-reference: reference gtest
	$(call cpp_ctest,$(BUILD)/cpp-tests-reference,-DMETATENSOR_LIB_DIR=$(abspath $(REFERENCE)/lib) \
		-DMETATENSOR_C_INCLUDE=$(abspath $(REFERENCE)/include) -DMETATENSOR_CXX_INCLUDE=$(abspath $(REFERENCE)/include) \
		-DCMAKE_CXX_FLAGS=-DMTS_TEST_REFERENCE)

# $(1): the build directory; $(2): extra arguments of the configuration
define cpp_reference_suite
	cmake -S bindings/cpp/reference-suite -B $(1) -G Ninja -DMETATENSOR_SOURCE=$(abspath $(METATENSOR_SOURCE)) \
		-DMETATENSOR_LIB_DIR=$(abspath $(BUILD)/lib) -DMETATENSOR_C_INCLUDE=$(abspath $(INCLUDE)) $(2) \
		>$(1).log || { cat $(1).log; exit 1; }
	cmake --build $(1)
	cd $(1) && { ctest -V >ctest.log 2>&1 || { cat ctest.log; exit 1; }; }
	grep -E '^[0-9]+: All tests passed|tests passed' $(1)/ctest.log
endef

METATENSOR_SOURCE ?=
ifeq ($(METATENSOR_SOURCE),)
cpp-reference-suite:
	@echo "cpp-reference-suite: skipped, METATENSOR_SOURCE is not set (a metatensor source tree, which CI can not download)"
else
cpp-reference-suite: lib headers
	$(call cpp_reference_suite,$(BUILD)/cpp-reference-suite,)
	$(call cpp_reference_suite,$(BUILD)/cpp-reference-suite-sanitized,"-DCMAKE_CXX_FLAGS=$(CPP_SANITIZERS)")
endif

cpp-examples: lib headers
	@mkdir -p $(BUILD)/examples
	@for example in examples/cpp/*.cpp; do \
		name=cpp-$$(basename $$example .cpp); \
		$(CXX) -std=c++17 -Wall -Wextra -Werror -I$(CPP_INCLUDE) -I$(INCLUDE) -o $(BUILD)/examples/$$name $$example \
			-L$(BUILD)/lib -lmetatensor -Wl,-rpath,$(abspath $(BUILD)/lib) || exit 1; \
		echo "=== example $$name"; $(BUILD)/examples/$$name || exit 1; \
	done

cpp-install: $(CPP_HEADERS)
	for header in $(patsubst $(CPP_INCLUDE)/%,%,$(CPP_HEADERS)); do \
		install -D -m 644 $(CPP_INCLUDE)/$$header $(PREFIX)/include/$$header; \
	done
