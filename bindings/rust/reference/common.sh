# Sourced by run.sh and ours.sh, which pass on their arguments:
#   <scratch directory> <directory of libmetatensor.so> <python with metatensor-core>
# Sets here, sys, work, libdir, python and cargo; fetches the reference's metatensor crate
# from crates.io and sets `reference` to the directory of its sources; writes the stand-ins of
# the data files its serialization tests read (make_data.py) where those tests look for them,
# ../../metatensor-core/tests/*.mts from their package's directory, that is a package two
# levels below the scratch directory; defines read_skips.

VERSION=0.5.1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sys=$(cd "$here/../metatensor-sys" && pwd)
work=$1
libdir=$(cd "$2" && pwd)
python=$3
cargo=${CARGO:-cargo}
mkdir -p "$work"
work=$(cd "$work" && pwd)

# cargo fetches the crate into its registry for a scratch package depending on it; its
# metadata says where the sources are
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<TOML
[package]
name = "fetch-metatensor"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
metatensor = "=$VERSION"
TOML
touch "$work/fetch/src/lib.rs"
manifest=$("$cargo" metadata --format-version 1 --manifest-path "$work/fetch/Cargo.toml" |
    python3 -c 'import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "metatensor" and p["version"] == sys.argv[1]:
        print(p["manifest_path"])' "$VERSION")
if [ -z "$manifest" ]; then
    echo "cargo did not fetch metatensor $VERSION" >&2
    exit 1
fi
reference=$(dirname "$manifest")

"$python" "$here/make_data.py" "$work/metatensor-core/tests"

# read_skips FILE fills the array `skips` with a `--skip NAME` pair for each test listed in
# FILE (lines `<test binary> <full test name> <reason>`; `#` comments and blank lines ignored)
read_skips() {
    skips=()
    while read -r binary name _; do
        case "$binary" in '' | '#'*) continue ;; esac
        skips+=(--skip "$name")
    done < "$1"
}
