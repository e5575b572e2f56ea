#!/usr/bin/env bash
# .mts compatibility between the Go binding (package metatensor in bindings/go, pure Go) and
# the reference, both ways: the Go binding reads the files the reference wrote, and the
# reference's own Python package reads the files the Go binding wrote.
#
# usage: go.sh PYTHON REFERENCE_DIR WORKDIR
#
#   PYTHON         python of the reference's virtual environment (metatensor-core and numpy)
#   REFERENCE_DIR  the files the reference wrote (run.sh's WORKDIR/reference)
#   WORKDIR        where the Go binding's files and the logs go (emptied first)
#   GO             (environment) the go command, `go` by default
#
# Steps (each prints PASS or FAIL; the script goes on after a failure and exits with 1):
#   1  the Go tests TestReferenceFiles* (bindings/go/compat_test.go): the Go binding loads
#      every file of REFERENCE_DIR from its path, its bytes and a reader, and saves each
#      object to a path (Save), a buffer (SaveBuffer) and an io.Writer (WriteTo), into
#      WORKDIR/save, WORKDIR/buffer and WORKDIR/writer: every file holds the reference's bytes
#   2  the reference reads the files of each directory and compares them with its fixtures
#      (check.py --all: names, values, dtypes, gradients, info; with numpy alone too)
#   3  the files of each directory are byte for byte the reference's (compare.py)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=steps.sh
source "$here/steps.sh"
arguments "PYTHON REFERENCE_DIR WORKDIR" "$@"
root=$(cd "$here/../.." && pwd)
python=$1
reference_dir=$(realpath "$2") || exit 2
go=${GO:-go}
work_directory "$3" go-compat
ways=(save buffer writer)

# go_writes: the Go tests; the lines of their failures are FAIL lines for `step`
go_writes() {
    local output status
    output=$(cd "$root" && MTS_COMPAT_REFERENCE_DIR="$reference_dir" MTS_COMPAT_GO_DIR="$work" \
        "$go" test ./bindings/go -run '^TestReferenceFiles' -count=1 -v 2>&1)
    status=$?
    printf '%s\n' "$output" | sed -e 's/^FAIL/go test: FAIL/' \
        -e 's/^\( *--- FAIL: \)/FAIL \1/' -e 's/^ *\([a-z_]*_test\.go:[0-9]*: \)/FAIL \1/'
    [ $status -eq 0 ] || return $status
    local files
    files=$(grep -c -- '--- PASS: TestReferenceFilesLoadAndSaveIdentically/' <<<"$output")
    echo "the Go binding loaded $files files of $reference_dir in 3 ways and saved each in" \
        "${#ways[@]} ways (${ways[*]}) into $work: the reference's bytes"
}

step 1 "the Go binding loads the reference's files and saves them in every way" go_writes
for way in "${ways[@]}"; do
    step "2-$way" "the reference reads the Go binding's files ($way)" \
        reference check.py "$work/$way" --all
done
for way in "${ways[@]}"; do
    step "3-$way" "the Go binding's files ($way) are byte for byte the reference's" \
        "$python" "$here/compare.py" "$reference_dir" "$work/$way"
done
summary
