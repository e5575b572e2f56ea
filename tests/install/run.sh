#!/usr/bin/env bash
# Builds a small program against an installed metatensor the two ways users do: CMake's
# find_package(metatensor) with the metatensor::shared target, and pkg-config.
# usage: run.sh PREFIX WORKDIR
set -euo pipefail
prefix=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
passed=0
failed=0
report() {
    if [ "$2" -eq 0 ]; then echo "PASS $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi
}

# cmake_program PROJECT PROGRAM: configures and builds the CMake project tests/install/PROJECT
# against the prefix, then runs PROGRAM; prints the log when a step fails.
cmake_program() {
    (
        set -e
        cmake -S "$here/$1" -B "$work/$1" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$work/$1.log"
        cmake --build "$work/$1" >>"$work/$1.log"
        "$work/$1/$2"
    ) || { cat "$work/$1.log"; false; }
}

set +e
cmake_program cmake-project installed-version
report "cmake find_package(metatensor 0.2) + metatensor::shared" $?

cmake_program cmake-cpp-project installed-cpp
report "cmake find_package(metatensor 0.2) + metatensor::shared from C++ (metatensor.hpp)" $?

if command -v pkg-config >/dev/null; then
    (
        set -e
        export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
        cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags metatensor) \
            -o "$work/pkg-config-version" "$here/cmake-project/main.c" \
            $(pkg-config --libs metatensor) -Wl,-rpath,"$prefix/lib"
        "$work/pkg-config-version"
    )
    report "pkg-config metatensor" $?
else
    echo "SKIP pkg-config: not installed"
fi
set -e

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
