#!/usr/bin/env bash
# .mts compatibility, both ways, between the reference library and LIBRARY, through the
# reference's own Python package (metatensor-core): the same scripts run on either library,
# LIBRARY being chosen with MTS_LIBRARY (see mtslib.py).
#
# usage: run.sh PYTHON LIBRARY WORKDIR
#
#   PYTHON   python of the reference's virtual environment (metatensor-core and numpy)
#   LIBRARY  the libmetatensor.so under test; the reference's own library runs the reference
#            against itself
#   WORKDIR  where the files and logs go (emptied first)
#
# Steps (each prints PASS or FAIL; the script goes on after a failure and exits with 1):
#   1  the reference writes every fixture (fixtures.py) into WORKDIR/reference, and reads
#      them back: the baseline, and the reference's error messages for wrong-kind loads
#   2  LIBRARY reads the reference's files: same content as the fixtures, same messages
#   3  LIBRARY writes every fixture into WORKDIR/ours
#   4  the reference reads LIBRARY's files
#   5  LIBRARY's files are byte for byte the reference's
#   6  DEFLATE copies of the reference's zips (deflate.py) are read by both libraries, and
#      LIBRARY re-saves them as the reference's original bytes
#   7  LIBRARY loads and re-saves the reference's files without knowing what they hold:
#      identical bytes; the same for upstream's test data files (data.mts, keys.mts,
#      block.mts) when MTS_COMPAT_DATA_DIR names a directory holding them. They are not in
#      the metatensor-core 0.2.6 sdist on PyPI, so without it this part is skipped.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=steps.sh
source "$here/steps.sh"
arguments "PYTHON LIBRARY WORKDIR" "$@"
python=$1
library=$(realpath "$2") || exit 2
data_dir=${MTS_COMPAT_DATA_DIR:-}

work_directory "$3" mts-compat

# ours SCRIPT ARGS...: runs a script of this directory with LIBRARY (`reference` of steps.sh
# runs it with the reference's own library)
ours() { MTS_LIBRARY="$library" "$python" "$here/$1" "${@:2}"; }

reference_library=$(env -u MTS_LIBRARY "$python" -c \
    'import metatensor._c_lib as c, os; print(os.path.realpath(c._lib_path()))') || exit 2
echo "reference library: $reference_library"
echo "library under test: $library"
if [ "$library" = "$reference_library" ]; then
    echo "(the reference itself: reference against reference)"
fi

step 1a "the reference writes the fixtures" reference write.py "$work/reference"
step 1b "the reference reads its own files" \
    reference check.py "$work/reference" --all --messages "$work/messages-reference.txt"

step 2a "the library under test reads the reference's files" \
    ours check.py "$work/reference" --all --messages "$work/messages-ours.txt"
step 2b "its error messages for wrong-kind loads are the reference's" \
    diff -u "$work/messages-reference.txt" "$work/messages-ours.txt"

step 3 "the library under test writes the fixtures" ours write.py "$work/ours"
step 4 "the reference reads the files of the library under test" \
    reference check.py "$work/ours" --all
step 5 "the files of the library under test are byte for byte the reference's" \
    "$python" "$here/compare.py" "$work/reference" "$work/ours"

step 6a "DEFLATE copies of the reference's zips" \
    "$python" "$here/deflate.py" "$work/reference" "$work/deflate"
step 6b "the reference reads the DEFLATE copies" \
    reference check.py "$work/deflate" --all --messages "$work/messages-deflate-reference.txt"
step 6c "the library under test reads the DEFLATE copies" \
    ours check.py "$work/deflate" --all --messages "$work/messages-deflate-ours.txt"
step 6d "its error messages on the DEFLATE copies are the reference's" \
    diff -u "$work/messages-deflate-reference.txt" "$work/messages-deflate-ours.txt"
step 6e "the library under test re-saves the DEFLATE copies" \
    ours resave.py "$work/deflate" "$work/deflate-resaved"
step 6f "as the reference's original bytes" \
    "$python" "$here/compare.py" "$work/reference" "$work/deflate-resaved"

step 7a "the library under test loads and re-saves the reference's files" \
    ours resave.py "$work/reference" "$work/resaved"
step 7b "identical bytes" "$python" "$here/compare.py" "$work/reference" "$work/resaved"
if [ -n "$data_dir" ]; then
    mkdir -p "$work/data"
    for name in data.mts keys.mts block.mts; do
        cp "$data_dir/$name" "$work/data/$name" || failed+=("7c-$name")
    done
    step 7c "the library under test loads and re-saves upstream's test data" \
        ours resave.py "$work/data" "$work/data-resaved"
    step 7d "identical bytes" "$python" "$here/compare.py" "$work/data" "$work/data-resaved"
else
    echo "SKIP (7c) upstream's test data (data.mts, keys.mts, block.mts): not in the"
    echo "    metatensor-core 0.2.6 sdist; set MTS_COMPAT_DATA_DIR to a directory holding them"
fi

summary
