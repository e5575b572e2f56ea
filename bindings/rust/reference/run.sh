#!/usr/bin/env bash
# Builds the reference's metatensor crate, taken from crates.io, against our metatensor-sys
# (a [patch.crates-io] in a scratch workspace) and runs its whole test suite on our library,
# less the tests of skipped.txt. The data files its serialization tests read from the
# reference's repository, which the published crate does not ship, are replaced by stand-ins
# that the reference's Python package writes (make_data.py).
#
#   run.sh <scratch directory> <directory of libmetatensor.so> <python with metatensor-core>
set -euo pipefail
source "$(dirname "$0")/common.sh"

# the crate as a member of a workspace that puts our sys crate in the place of crates.io's
rm -rf "$work/crate"
mkdir -p "$work/crate"
cp -r "$reference" "$work/crate/metatensor"
rm -f "$work/crate/metatensor/Cargo.lock"
cat > "$work/crate/Cargo.toml" <<TOML
[workspace]
members = ["metatensor"]
resolver = "2"

[patch.crates-io]
metatensor-sys = { path = "$sys" }
TOML

read_skips "$here/skipped.txt"
cd "$work/crate"
export CARGO_TARGET_DIR="$work/target" METATENSOR_LIB_DIR="$libdir"
"$cargo" test --no-fail-fast -- --exact "${skips[@]}"
