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

CPP_INCLUDE := bindings/cpp/include
CPP_HEADERS := $(shell find $(CPP_INCLUDE) -name '*.hpp' 2>/dev/null)
CPP_TESTS_DIR := bindings/cpp/tests
CPP_SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: cpp-signatures cpp-tests cpp-tests-plain cpp-tests-sanitized cpp-tests-reference cpp-examples cpp-install gtest

all: cpp-examples
test: cpp-tests
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
