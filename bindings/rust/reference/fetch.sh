#!/usr/bin/env bash
# Fetches the reference's metatensor crate from crates.io into cargo's registry (through a
# scratch package that depends on it) and prints the directory of its sources.
#
#   fetch.sh <scratch directory> <version>
set -euo pipefail

work=$1
version=$2
cargo=${CARGO:-cargo}

mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<TOML
[package]
name = "fetch-metatensor"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
metatensor = "=$version"
TOML
touch "$work/fetch/src/lib.rs"
# cargo's metadata says where the sources are
manifest=$("$cargo" metadata --format-version 1 --manifest-path "$work/fetch/Cargo.toml" |
    python3 -c 'import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "metatensor" and p["version"] == sys.argv[1]:
        print(p["manifest_path"])' "$version")
if [ -z "$manifest" ]; then
    echo "fetch.sh: cargo did not fetch metatensor $version" >&2
    exit 1
fi
dirname "$manifest"
