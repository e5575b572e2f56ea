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

set +e
(
    set -e
    cmake -S "$here/cmake-project" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log"
    cmake --build "$work/cmake" >>"$work/cmake.log"
    "$work/cmake/installed-version"
) || { cat "$work/cmake.log"; false; }
report "cmake find_package(metatensor 0.2) + metatensor::shared" $?

(
    set -e
    cmake -S "$here/cmake-cpp-project" -B "$work/cmake-cpp" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-cpp.log"
    cmake --build "$work/cmake-cpp" >>"$work/cmake-cpp.log"
    "$work/cmake-cpp/installed-cpp"
) || { cat "$work/cmake-cpp.log"; false; }
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
