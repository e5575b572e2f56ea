#!/usr/bin/env bash
# Runs the same seeded random sequences through the reference library and ours, and fails when
# their transcripts differ:
#   - labels_sequence.c: labels operations;
#   - tensor_sequence.c: block and tensor map operations (f64, f32, i32 and i64 data, gradients,
#     components, empty blocks, unsorted samples), switched off with REFERENCE_COMPARE_TENSORS=0;
# and fails when ours calls an array member more often than the reference does for the same
# operation:
#   - callback_counts.c: the calls to each member of the test arrays, operation by operation,
#     for a fixed list of block and tensor map operations and sequences of them (switched off
#     with the tensor sequences); fewer calls than the reference are listed, not a failure.
# All include sequence.h (what they share), found next to them.
#
# usage: run.sh REF_INCLUDE REF_LIBDIR OUR_INCLUDE OUR_LIBDIR WORKDIR
#
#   REF_INCLUDE, OUR_INCLUDE  directories holding metatensor.h (and metatensor/...)
#   REF_LIBDIR, OUR_LIBDIR    directories holding libmetatensor.so
#   WORKDIR                   where the programs and transcripts go
#
# Environment:
#   LABELS_SEQUENCE_SEEDS      seeds of the labels sequences (default "1 2 3 4 5")
#   LABELS_SEQUENCE_COUNT      operations per labels seed (default 5000)
#   REFERENCE_COMPARE_TENSORS  1 (default): also compare the tensor sequences and the callback
#                              counts; 0: labels only
#   TENSOR_SEQUENCE_SEEDS      seeds of the tensor sequences (default "1 2 3 4 5")
#   TENSOR_SEQUENCE_COUNT      operations per tensor seed (default 3000)
#   CC                         C compiler (default cc)
#
# Before comparing, the reference's own transcripts are checked: the reference run twice gives
# the same transcript (the first labels seed, and every tensor seed since the reference's
# hash maps are seeded at random in each process), every reference run exits with 0, prints
# nothing on stderr, never returns status 255 nor an internal error (the sequences stay away
# from the reference's panics) and never flags an unexpected result. The reference's callback
# counts must come out the same twice, with exit code 0 and nothing on stderr.
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
labels_seeds=${LABELS_SEQUENCE_SEEDS:-1 2 3 4 5}
labels_count=${LABELS_SEQUENCE_COUNT:-5000}
tensors=${REFERENCE_COMPARE_TENSORS:-1}
tensor_seeds=${TENSOR_SEQUENCE_SEEDS:-1 2 3 4 5}
tensor_count=${TENSOR_SEQUENCE_COUNT:-3000}
cc=${CC:-cc}

case "$tensors" in
0 | 1) ;;
*)
    echo "reference-compare: REFERENCE_COMPARE_TENSORS must be 0 or 1, got '$tensors'" >&2
    exit 2
    ;;
esac

mkdir -p "$work" || exit 2
rm -f "$work"/*.txt "$work"/*.err "$work"/*.diff

build() { # PROGRAM NAME INCLUDE LIBDIR
    "$cc" -std=c11 -Wall -Wextra -Werror -I"$3" -I"$here/../../bindings/c/tests" \
        -o "$work/$1-$2" "$here/$1.c" \
        -L"$4" -lmetatensor -Wl,-rpath,"$4" -pthread
}

programs="labels_sequence"
[ "$tensors" = 1 ] && programs="$programs tensor_sequence callback_counts"
for program in $programs; do
    build "$program" reference "$ref_include" "$ref_libdir" ||
        { echo "reference-compare: building $program against the reference failed"; exit 1; }
    build "$program" ours "$our_include" "$our_libdir" ||
        { echo "reference-compare: building $program against our library failed"; exit 1; }
done

# the reference does not print the panics it catches unless RUST_BACKTRACE is set
run_reference() { # OUTPUT PROGRAM [ARGUMENTS...]
    local output=$1 program=$2
    shift 2
    env -u RUST_BACKTRACE timeout 120 "$work/$program-reference" "$@" >"$output.txt" 2>"$output.err"
}

run_ours() { # OUTPUT PROGRAM [ARGUMENTS...]
    local output=$1 program=$2
    shift 2
    timeout 120 "$work/$program-ours" "$@" >"$output.txt" 2>"$output.err"
}

# what makes a reference transcript unusable, besides exit code and stderr
flags='UNEXPECTED\|CHANGED\|wrote-past-count\|BAD-\|result-not-NULL\|of the result failed'

broken=0
failed=0
report=""

# compare PROGRAM "SEEDS" COUNT TWICE: TWICE is "first" (run the reference twice for the first
# seed) or "all" (for every seed)
compare() {
    local program=$1 seeds=$2 count=$3 twice=$4
    local prefix=${program%_sequence}
    local first_seed=${seeds%% *}
    local ops=0 lines=0 summary="" seed
    for seed in $seeds; do
        local ref="$work/$prefix-reference-$seed"
        local ours="$work/$prefix-ours-$seed"

        run_reference "$ref" "$program" "$seed" "$count"
        local ref_rc=$?
        local problems=""
        [ $ref_rc -eq 0 ] || problems="$problems exit code $ref_rc;"
        [ -s "$ref.err" ] && problems="$problems wrote to stderr;"
        grep -q 'status=255' "$ref.txt" && problems="$problems status 255 (a panic);"
        grep -q 'internal metatensor error' "$ref.txt" &&
            problems="$problems an internal error (a panic);"
        grep -q "$flags" "$ref.txt" && problems="$problems flagged results;"
        grep -q '^arrays: ok$' "$ref.txt" || problems="$problems no 'arrays: ok';"
        if [ "$twice" = all ] || [ "$seed" = "$first_seed" ]; then
            run_reference "$ref-again" "$program" "$seed" "$count"
            local again_rc=$?
            if [ $again_rc -ne $ref_rc ] || ! cmp -s "$ref-again.txt" "$ref.txt"; then
                problems="$problems two runs gave different transcripts (see $ref-again.txt);"
            fi
        fi
        if [ -n "$problems" ]; then
            echo "reference-compare: the reference transcript of $program seed $seed is not usable:$problems"
            echo "    see $ref.txt and $ref.err"
            broken=1
            continue
        fi

        run_ours "$ours" "$program" "$seed" "$count"
        local our_rc=$?
        local seed_lines seed_ops status
        seed_lines=$(wc -l <"$ref.txt")
        seed_ops=$(grep -c '^#' "$ref.txt")
        ops=$((ops + seed_ops))
        lines=$((lines + seed_lines))
        # "labels-made" counts only have to be no larger in ours; the diff ignores them.
        local bound_problem
        bound_problem=$(paste -d' ' <(sed -n 's/^  labels-made: from_dlpack+copy=//p' "$ref.txt") \
            <(sed -n 's/^  labels-made: from_dlpack+copy=//p' "$ours.txt") |
            awk '$2 == "" || $2 > $1 { print "line " NR ": reference " $1 ", ours " $2; exit }')
        if [ -n "$bound_problem" ]; then
            echo "=== $program seed $seed: more labels arrays made than the reference ($bound_problem)"
            failed=1
        fi
        if diff -u --label "reference ($program seed $seed)" --label "ours ($program seed $seed)" \
            <(sed 's/^  labels-made: from_dlpack+copy=.*/  labels-made: (at most the reference)/' "$ref.txt") \
            <(sed 's/^  labels-made: from_dlpack+copy=.*/  labels-made: (at most the reference)/' "$ours.txt") \
            >"$ours.diff"; then
            status="same"
            if [ $our_rc -ne 0 ]; then
                status="same transcript, but exit code $our_rc"
                failed=1
            fi
        else
            failed=1
            local differing first_line first
            differing=$(grep -c '^[-+][^-+]' "$ours.diff")
            # the operation holding the first differing line
            first_line=$(cmp "$ref.txt" "$ours.txt" 2>/dev/null | sed -n 's/.* line \([0-9]*\)$/\1/p')
            first=""
            if [ -n "$first_line" ]; then
                first=$(head -n "$first_line" "$ref.txt" | grep '^#' | tail -n 1 | cut -d' ' -f1)
            fi
            status="DIFFERENT ($differing lines differ, first in ${first:-the end}; exit code $our_rc)"
            echo "=== $program seed $seed: first differences (full diff in $ours.diff)"
            head -n 60 "$ours.diff" | cut -c1-400
            if [ -s "$ours.err" ]; then
                echo "=== $program seed $seed: our stderr (first lines)"
                head -n 10 "$ours.err"
            fi
        fi
        summary="$summary
    seed $seed: $seed_ops operations, $seed_lines lines: $status"
    done
    report="$report
reference-compare: $prefix sequences, $count operations per seed$summary"
    total_ops=$((total_ops + ops))
    total_lines=$((total_lines + lines))
}

more_calls=0

# Runs callback_counts through both libraries and joins their counts into counts.txt, one line
# "OPERATION MEMBER REFERENCE OURS" for each member called on either side (a missing line is no
# call, so both must list the same operations). Ours calling a member more often is a failure,
# fewer calls are listed in the report.
compare_counts() {
    local ref="$work/counts-reference" ours="$work/counts-ours" table="$work/counts.txt"
    local problems="" ref_rc our_rc
    run_reference "$ref" callback_counts
    ref_rc=$?
    [ $ref_rc -eq 0 ] || problems="$problems exit code $ref_rc;"
    [ -s "$ref.err" ] && problems="$problems wrote to stderr;"
    grep -q '^callback_counts: [0-9]* operations$' "$ref.txt" || problems="$problems no closing line;"
    run_reference "$ref-again" callback_counts
    if [ $? -ne $ref_rc ] || ! cmp -s "$ref-again.txt" "$ref.txt"; then
        problems="$problems two runs gave different counts (see $ref-again.txt);"
    fi
    if [ -n "$problems" ]; then
        echo "reference-compare: the reference's callback counts are not usable:$problems"
        echo "    see $ref.txt and $ref.err"
        broken=1
        return
    fi

    run_ours "$ours" callback_counts
    our_rc=$?
    if [ $our_rc -ne 0 ] || [ -s "$ours.err" ]; then
        echo "=== callback_counts: ours exited with $our_rc; stderr (first lines):"
        head -n 10 "$ours.err"
        failed=1
    fi
    if ! diff -u --label "reference operations" --label "our operations" \
        <(cut -d' ' -f1 "$ref.txt" | uniq) <(cut -d' ' -f1 "$ours.txt" | uniq) >"$ours.diff"; then
        echo "=== callback_counts: our list of operations is not the reference's"
        head -n 20 "$ours.diff"
        failed=1
    fi

    awk '{ side = FILENAME == ARGV[1] ? 1 : 2 }
        NF == 3 && $1 != "callback_counts:" {
            key = $1 " " $2
            if (!(key in seen)) { seen[key] = 1; order[++n] = key }
            count[side, key] = $3
        }
        END { for (i = 1; i <= n; i++) print order[i], count[1, order[i]] + 0, count[2, order[i]] + 0 }' \
        "$ref.txt" "$ours.txt" >"$table"
    local more fewer
    more=$(awk '$4 > $3 { print "    " $1 " " $2 ": ours " $4 ", reference " $3 }' "$table")
    fewer=$(awk '$4 < $3 { print "    " $1 " " $2 ": ours " $4 ", reference " $3 }' "$table")
    if [ -n "$more" ]; then
        echo "=== callback_counts: our library calls these members more often than the reference"
        echo "$more"
        more_calls=1
    fi
    local operations n_more=0 n_fewer=0
    operations=$(sed -n 's/^callback_counts: \([0-9]*\) operations$/\1/p' "$ref.txt")
    [ -n "$more" ] && n_more=$(echo "$more" | wc -l)
    [ -n "$fewer" ] && n_fewer=$(echo "$fewer" | wc -l)
    report="$report
reference-compare: callback counts, $operations operations: $(wc -l <"$table") (operation, member) \
counts, $n_more more than the reference, $n_fewer fewer (table in $table)"
    if [ -n "$fewer" ]; then
        report="$report
    fewer calls than the reference (fine):
$fewer"
    fi
}

total_ops=0
total_lines=0
compare labels_sequence "$labels_seeds" "$labels_count" first
if [ "$tensors" = 1 ]; then
    compare tensor_sequence "$tensor_seeds" "$tensor_count" all
    compare_counts
fi

echo "${report#
}"
if [ "$tensors" = 0 ]; then
    echo "reference-compare: tensor sequences and callback counts skipped (REFERENCE_COMPARE_TENSORS=0)"
fi
if [ $broken -ne 0 ]; then
    echo "reference-compare: FAILED (the reference transcripts are not usable, see above)"
    exit 1
fi
echo "reference-compare: determinism: the reference gave the same transcripts twice"
if [ $failed -ne 0 ]; then
    echo "reference-compare: FAILED: our transcripts differ from the reference's ($total_ops operations, $total_lines lines compared; diffs in $work)"
fi
if [ $more_calls -ne 0 ]; then
    echo "reference-compare: FAILED: our library calls array members more often than the reference (see above; counts in $work/counts.txt)"
fi
[ $failed -eq 0 ] && [ $more_calls -eq 0 ] || exit 1
echo "reference-compare: ok: $total_ops operations, $total_lines lines compared, no difference"
if [ "$tensors" = 1 ]; then
    echo "reference-compare: ok: no array member called more often than by the reference"
fi
