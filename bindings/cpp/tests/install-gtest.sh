#!/usr/bin/env bash
# Makes sure GoogleTest is installed for the C++ tests: the Debian package libgtest-dev
# (headers, libraries and CMake package), installed with apt-get when it is missing.
set -euo pipefail
if [ -f /usr/include/gtest/gtest.h ] && ls /usr/lib/*/cmake/GTest/GTestConfig.cmake /usr/lib/cmake/GTest/GTestConfig.cmake >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "install-gtest.sh: GoogleTest is missing and there is no apt-get: install GoogleTest with its CMake package" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libgtest-dev >/dev/null
