#!/usr/bin/env bash
# Runs the same seeded random sequences of labels operations (labels_sequence.c) through the
# reference library and ours, and fails when their transcripts differ.
#
# usage: run.sh REF_INCLUDE REF_LIBDIR OUR_INCLUDE OUR_LIBDIR WORKDIR
#
#   REF_INCLUDE, OUR_INCLUDE  directories holding metatensor.h (and metatensor/...)
#   REF_LIBDIR, OUR_LIBDIR    directories holding libmetatensor.so
#   WORKDIR                   where the programs and transcripts go
#
# Environment:
#   LABELS_SEQUENCE_SEEDS  seeds to run (default "1 2 3 4 5")
#   LABELS_SEQUENCE_COUNT  operations per seed (default 5000)
#   CC                     C compiler (default cc)
#
# Before comparing, the reference's own transcripts are checked: the reference run twice with
# the first seed gives the same transcript (the program is deterministic), every reference run
# exits with 0, prints nothing on stderr, never returns status 255 (the sequence stays away
# from the reference's panics) and never flags an unexpected result.
set -u

if [ $# -ne 5 ]; then
    echo "usage: $0 REF_INCLUDE REF_LIBDIR OUR_INCLUDE OUR_LIBDIR WORKDIR" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
ref_include=$1
ref_libdir=$(cd "$2" && pwd) || exit 2
our_include=$3
our_libdir=$(cd "$4" && pwd) || exit 2
work=$5
seeds=${LABELS_SEQUENCE_SEEDS:-1 2 3 4 5}
count=${LABELS_SEQUENCE_COUNT:-5000}
cc=${CC:-cc}

mkdir -p "$work" || exit 2
rm -f "$work"/*.txt "$work"/*.err "$work"/*.diff

build() { # NAME INCLUDE LIBDIR
    "$cc" -std=c11 -Wall -Wextra -Werror -I"$2" -I"$here/../../bindings/c/tests" \
        -o "$work/labels_sequence-$1" "$here/labels_sequence.c" \
        -L"$3" -lmetatensor -Wl,-rpath,"$3" -pthread
}

build reference "$ref_include" "$ref_libdir" || { echo "reference-compare: build against the reference failed"; exit 1; }
build ours "$our_include" "$our_libdir" || { echo "reference-compare: build against our library failed"; exit 1; }

# the reference does not print the panics it catches unless RUST_BACKTRACE is set
run_reference() { # SEED OUTPUT
    env -u RUST_BACKTRACE timeout 120 "$work/labels_sequence-reference" "$1" "$count" >"$2.txt" 2>"$2.err"
}

run_ours() { # SEED OUTPUT
    timeout 120 "$work/labels_sequence-ours" "$1" "$count" >"$2.txt" 2>"$2.err"
}

broken=0
failed=0
ops=0
lines=0
summary=""

first_seed=${seeds%% *}
run_reference "$first_seed" "$work/determinism"
determinism_rc=$?

for seed in $seeds; do
    ref="$work/reference-$seed"
    ours="$work/ours-$seed"

    run_reference "$seed" "$ref"
    ref_rc=$?
    problems=""
    [ $ref_rc -eq 0 ] || problems="$problems exit code $ref_rc;"
    [ -s "$ref.err" ] && problems="$problems wrote to stderr;"
    grep -q 'status=255' "$ref.txt" && problems="$problems status 255 (a panic);"
    grep -q 'UNEXPECTED\|CHANGED\|wrote-past-count\|BAD-values\|result-not-NULL\|of the result failed' "$ref.txt" &&
        problems="$problems flagged results;"
    grep -q '^arrays: ok$' "$ref.txt" || problems="$problems no 'arrays: ok';"
    if [ "$seed" = "$first_seed" ]; then
        if [ $determinism_rc -ne $ref_rc ] || ! cmp -s "$work/determinism.txt" "$ref.txt"; then
            problems="$problems two runs gave different transcripts;"
        fi
    fi
    if [ -n "$problems" ]; then
        echo "reference-compare: the reference transcript of seed $seed is not usable:$problems"
        echo "    see $ref.txt and $ref.err"
        broken=1
        continue
    fi

    run_ours "$seed" "$ours"
    our_rc=$?
    seed_lines=$(wc -l <"$ref.txt")
    seed_ops=$(grep -c '^#' "$ref.txt")
    ops=$((ops + seed_ops))
    lines=$((lines + seed_lines))
    if diff -u --label "reference (seed $seed)" --label "ours (seed $seed)" "$ref.txt" "$ours.txt" >"$ours.diff"; then
        status="same"
        if [ $our_rc -ne 0 ]; then
            status="same transcript, but exit code $our_rc"
            failed=1
        fi
    else
        failed=1
        differing=$(grep -c '^[-+][^-+]' "$ours.diff")
        first=$(grep -m1 '^-[^-]' "$ours.diff" | cut -c2- | cut -d' ' -f1)
        status="DIFFERENT ($differing lines differ, first at ${first:-end}; exit code $our_rc)"
        echo "=== seed $seed: first differences (full diff in $ours.diff)"
        head -n 60 "$ours.diff"
        if [ -s "$ours.err" ]; then
            echo "=== seed $seed: our stderr (first lines)"
            head -n 10 "$ours.err"
        fi
    fi
    summary="$summary
    seed $seed: $seed_ops operations, $seed_lines lines: $status"
done

echo "reference-compare: labels sequences, $count operations per seed$summary"
if [ $broken -ne 0 ]; then
    echo "reference-compare: FAILED (the reference transcripts are not usable, see above)"
    exit 1
fi
echo "reference-compare: determinism: the reference gave the same transcript twice for seed $first_seed"
if [ $failed -ne 0 ]; then
    echo "reference-compare: FAILED: our transcripts differ from the reference's ($ops operations, $lines lines compared; diffs in $work)"
    exit 1
fi
echo "reference-compare: ok: $ops operations, $lines lines compared, no difference"
