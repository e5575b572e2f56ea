#!/usr/bin/env bash
# Runs the tests of the reference's metatensor crate, taken from crates.io, on OUR metatensor
# crate (bindings/rust/metatensor): this is what source compatibility means.
#
# - its integration tests (tests/*.rs) go into a scratch package whose `metatensor`
#   dependency is our crate: the path dependency swap;
# - its unit tests (the `mod tests` at the end of its source files) are appended, renamed
#   `reference_tests`, to the files of the same path in a scratch copy of our crate, whose
#   layout follows the reference's for this;
# - it has no doc test that compiles (its only code blocks are toml and a file tree);
# - its benchmark (benches/) uses the API too: it is compiled against our crate.
#
# The rayon feature is on, for the tests of the parallel iterators. The serialization
# tests read stand-ins of the data files the published crate lacks (make_data.py, through
# common.sh); skipped-ours.txt lists the tests left out and why.
#
#   ours.sh <scratch directory> <directory of libmetatensor.so> <python with metatensor-core>
set -euo pipefail
source "$(dirname "$0")/common.sh"
ours=$(cd "$here/../metatensor" && pwd)

# our crate, with the reference's unit tests added to its files
rm -rf "$work/ours"
mkdir -p "$work/ours/metatensor" "$work/ours/integration"
cp -r "$ours/src" "$ours/Cargo.toml" "$ours/README.md" "$work/ours/metatensor/"
sed -i "s|path = \"../metatensor-sys\"|path = \"$sys\"|" "$work/ours/metatensor/Cargo.toml"
"$python" - "$reference/src" "$work/ours/metatensor/src" <<'PYTHON'
import pathlib, re, sys

reference, ours = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
module = re.compile(r"^#\[cfg\(test\)\]\n(?:#\[.*\]\n)*mod tests \{", re.MULTILINE)
for source in sorted(reference.rglob("*.rs")):
    found = module.search(source.read_text())
    if found is None:
        continue
    target = ours / source.relative_to(reference)
    if not target.exists():
        sys.exit(f"ours.sh: the reference has unit tests in {target.relative_to(ours)}, which our crate lacks")
    tests = found.string[found.start():].replace("mod tests {", "mod reference_tests {", 1)
    with target.open("a") as file:
        file.write("\n// the unit tests of the reference's crate, added by ours.sh\n" + tests)
    print(f"ours.sh: reference unit tests added to src/{target.relative_to(ours)}")
PYTHON

# the reference's integration tests and benchmark, in a package depending on our crate
cp -r "$reference/tests" "$reference/benches" "$work/ours/integration/"
mkdir -p "$work/ours/integration/src"
touch "$work/ours/integration/src/lib.rs"
cat > "$work/ours/integration/Cargo.toml" <<TOML
[package]
name = "reference-tests"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
metatensor = { path = "../metatensor", features = ["rayon"] }

[dev-dependencies]
dlpk = { version = "0.4.0", features = ["ndarray", "half", "sync"] }
ndarray = "0.17"
half = "2.7"
tempfile = "3"
regex = "1"
json = "0.12"

[[bench]]
name = "bench-rust-classes"
harness = false
TOML
cat > "$work/ours/Cargo.toml" <<TOML
[workspace]
members = ["metatensor", "integration"]
resolver = "2"
TOML

read_skips "$here/skipped-ours.txt"

cd "$work/ours"
export CARGO_TARGET_DIR="$work/target" METATENSOR_LIB_DIR="$libdir"
"$cargo" test --workspace --features metatensor/rayon --no-fail-fast -- --exact "${skips[@]}"
# the benchmark is compiled, not run: its timings are not a test
"$cargo" build --workspace --features metatensor/rayon --benches
