#!/usr/bin/env bash
# Runs the benchmark programs built against our library and against the reference, one after
# the other, and prints one table: operation | ours | reference | ours/reference (medians).
#
# usage: bench/run.sh OUT_DIR PROGRAM... [-- BENCH_ARGS...]
#
# A PROGRAM is the path of a pair of binaries without its suffix: PROGRAM-ours is built
# against our library, PROGRAM-reference against the reference. BENCH_ARGS holds options
# (--quick...), given to every binary, and patterns, which pick the cases (bench/harness.h).
#
# Each case runs in a process of its own, BENCH_ROUNDS times (default 3) on each side: in a
# round, the two sides of a case run one right after the other, the reference first in odd
# rounds and ours first in even ones; a row's median is the median of its medians over the
# rounds. On a shared machine, whose speed drifts over seconds and whose processes do not all
# run at one speed, one run of each side would compare them under different conditions:
# running each case of the two sides side by side, a few seconds apart, and in several rounds
# spreads both over the same stretch of time. (Whole programs of one side after the other put
# minutes between the two sides of a case: mts_block's ratio read 1.09 in one run and 0.28 in
# the next.) A case alone in its process does not depend on what ran before it.
#
# Writes OUT_DIR/ours.tsv and OUT_DIR/reference.tsv (the rows of every program of that side,
# one after the other, see bench/harness.h) and OUT_DIR/results.tsv, one line per operation:
#   id  description  unit  ours_median_ns  reference_median_ns  ratio  ours_status
#   reference_status  ours_message  reference_message  round_ratio_min  round_ratio_max
# where a status is ok, error or missing (the program died before that row) and the numbers
# of a row that is not ok are "-". In the table an error reads "n/a"; the messages follow it.
# The round ratios are the lowest and highest of ours/reference within one round, where the
# two sides ran one after the other: how far the host's drift moved the row during the run
# (a ratio whose range straddles 1 says less than one far from it). "-" with one round.
#
# A program may name one of its rows as its baseline with a "#baseline<TAB>ID" line (io_bench:
# a plain memcpy): a second table then gives, for every other row of that program, its median
# over the baseline's median, for each library in its own run.
#
# BENCH_FASTPATH_CASES, when set, names the cases that show the fast paths of our library
# (bindings/c/fastpath.h), as ID:FASTPATH words: after the two sides of such a case, a "plain"
# side runs it again on our binary with that fast path off (MTSGO_FASTPATHS=-FASTPATH), in
# the same rounds, and a last table gives each case's gain, its plain median over ours
# (OUT_DIR/plain-FASTPATH.tsv, and OUT_DIR/fastpaths.tsv, see bench/fastpaths.sh).
#
# BENCH_MALLOC picks the state of glibc's allocator in every binary of both sides: "steady"
# (the default) fixes its thresholds at the top of the range glibc's own adjustment reaches
# (mmap_threshold 32 MiB, trim_threshold 64 MiB), "default" leaves glibc as it starts. Left
# alone, glibc hands allocations of a few MiB to mmap and gives freed memory back at once
# until its adjustment has seen blocks that large, so a case paid page faults on every call
# or not depending on what ran before it in the same process: the reference's time to build
# a map of 10,000 blocks read 1.8 ms early in its process and 0.55 ms late. Steady, each case
# times what the call costs in a process past its first large allocations, on both sides (its
# warm-up calls make them). A
# GLIBC_TUNABLES already set wins over both.
#
# Errors in our library are reported and do not fail the run (the library may not implement
# everything yet); an error or a crash of the reference program does, since it means the
# benchmark itself is broken.
set -u

usage() {
    echo "usage: $0 OUT_DIR PROGRAM... [-- BENCH_ARGS...]" >&2
    exit 2
}

[ $# -ge 2 ] || usage
out=$1
shift
programs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    programs+=("$1")
    shift
done
[ $# -gt 0 ] && shift # the "--"
[ ${#programs[@]} -gt 0 ] || usage
mkdir -p "$out"

case ${BENCH_MALLOC:-steady} in
steady)
    export GLIBC_TUNABLES=${GLIBC_TUNABLES-glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864}
    ;;
default) ;;
*) echo "BENCH_MALLOC must be steady or default, got '$BENCH_MALLOC'" >&2; exit 2 ;;
esac
allocator="glibc, ${GLIBC_TUNABLES:-its defaults}"

rounds=${BENCH_ROUNDS:-3}
case $rounds in
'' | *[!0-9]* | 0) echo "BENCH_ROUNDS must be a positive number, got '$rounds'" >&2; exit 2 ;;
esac

# BENCH_ARGS split: the options (--quick...), given to every binary, and the patterns, which
# pick the cases (bench/harness.h).
options=()
patterns=()
for argument in "$@"; do
    case $argument in
    --*) options+=("$argument") ;;
    *) patterns+=("$argument") ;;
    esac
done
# The ID:FASTPATH words of BENCH_FASTPATH_CASES.
read -r -a fastpath_cases <<<"${BENCH_FASTPATH_CASES:-}"

# The fast paths whose cases hold this id, one a line.
fastpaths_of() {
    local word
    for word in "${fastpath_cases[@]}"; do
        [ "${word%%:*}" = "$1" ] && echo "${word#*:}"
    done
}

# The ids of the cases of a program that BENCH_ARGS picks, one a line, as its reference binary
# lists them.
cases_of_program() {
    local listed
    listed=$("$1-reference" --list "${patterns[@]}") || return 1
    printf '%s\n' "$listed" | cut -f1
}

# Runs one case of one program on one side, appending to OUT_DIR/SIDE.tsv; prints the failure
# ("NAME exited with status N") on stdout. A side plain-FASTPATH runs our binary with that
# fast path off.
run_case() {
    local side=$1 program=$2 id=$3
    local binary status suffix=$side
    local -a environment=()
    if [[ $side == plain-* ]]; then
        suffix=ours
        environment=("MTSGO_FASTPATHS=-${side#plain-}")
    fi
    binary=$program-$suffix
    echo "=== $side: $binary $id" >&2
    env "${environment[@]}" "$binary" "${options[@]}" "^$id\$" >>"$out/$side.tsv"
    status=$?
    if [ $status -ne 0 ]; then
        echo "=== $side: $binary exited with status $status" >&2
        echo "$(basename "$binary") exited with status $status"
    fi
}

: >"$out/reference.tsv"
: >"$out/ours.tsv"
rm -f "$out"/plain-*.tsv
reference_failures=""
ours_failures=""
plain_failures=""
declare -A program_cases=()
for program in "${programs[@]}"; do
    if ! program_cases[$program]=$(cases_of_program "$program"); then
        reference_failures+="$(basename "$program")-reference could not list its cases"$'\n'
    fi
done
# Each case runs in a process of its own on each side, the two sides one right after the
# other (the reference first in odd rounds, ours first in even ones), then with each fast path
# that names it switched off: the host's drift then moves both sides of a case alike, and no
# case's time depends on the cases that ran before it in its process.
for ((round = 1; round <= rounds; round++)); do
    echo "=== round $round of $rounds" >&2
    for program in "${programs[@]}"; do
        while read -r id; do
            [ -n "$id" ] || continue
            if ((round % 2 == 1)); then
                reference_failures+=$(run_case reference "$program" "$id")$'\n'
                ours_failures+=$(run_case ours "$program" "$id")$'\n'
            else
                ours_failures+=$(run_case ours "$program" "$id")$'\n'
                reference_failures+=$(run_case reference "$program" "$id")$'\n'
            fi
            for fastpath in $(fastpaths_of "$id"); do
                plain_failures+=$(run_case "plain-$fastpath" "$program" "$id")$'\n'
            done
        done <<<"${program_cases[$program]}"
    done
done
reference_failures=$(printf '%s' "$reference_failures" | sed '/^$/d' | sort -u)
ours_failures=$(printf '%s' "$ours_failures" | sed '/^$/d' | sort -u)
reference_failures=${reference_failures//$'\n'/; }
ours_failures=${ours_failures//$'\n'/; }

awk -F '\t' -v results="$out/results.tsv" -v rounds="$rounds" -v allocator="$allocator" \
    -v reference_failures="$reference_failures" -v ours_failures="$ours_failures" '
function format_time(ns,    value, unit) {
    if (ns == "-") return "-"
    value = ns + 0; unit = "ns"
    if (value >= 1e9) { value /= 1e9; unit = "s" }
    else if (value >= 1e6) { value /= 1e6; unit = "ms" }
    else if (value >= 1e3) { value /= 1e3; unit = "us" }
    if (value >= 100) return sprintf("%.0f %s", value, unit)
    if (value >= 10) return sprintf("%.1f %s", value, unit)
    return sprintf("%.2f %s", value, unit)
}
function cell(side, id) {
    if (state[side, id] == "error") return "n/a"
    if (state[side, id] != "ok") return state[side, id]
    return format_time(median[side, id])
}
function repeat(text, n,    result) {
    result = ""
    while (n-- > 0) result = result text
    return result
}
FNR == 1 { side = (FILENAME ~ /reference\.tsv$/) ? "reference" : "ours" }
/^#library\t/ { library[side] = $2; program_baseline = ""; next }
/^#baseline\t/ { program_baseline = $2; next }
/^#version\t/ { version[side] = $2; next }
/^#timing\t/ { if (!($2 in timing_seen)) { timing_seen[$2] = 1; timing[++timings] = $2 }; next }
/^#/ { next }
NF >= 9 {
    id = $1
    if (!(id in seen)) { seen[id] = 1; order[++count] = id }
    description[id] = $2
    unit[id] = $3
    if (program_baseline != "") baseline_of[id] = program_baseline
    # one line per round: the first failure stands for the row, else the median of the rounds
    if ((side, id) in status && status[side, id] != "ok") next
    status[side, id] = $9
    message[side, id] = (NF >= 10) ? $10 : ""
    if ($9 == "ok") round_median[side, id, ++rounds_of[side, id]] = $4 + 0
}
# the median of the n values of round_median for (side, id)
function median_of_rounds(side, id,    n, i, j, value, sorted) {
    n = rounds_of[side, id]
    for (i = 1; i <= n; i++) {
        value = round_median[side, id, i]
        for (j = i - 1; j >= 1 && sorted[j] > value; j--) sorted[j + 1] = sorted[j]
        sorted[j + 1] = value
    }
    return (n % 2 == 1) ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
}
# the lowest and highest ours/reference of a round for id, in lowest and highest: "-" unless
# both sides have every round of the row (round r of each side ran in round r)
function round_ratios(id,    r, value) {
    lowest = "-"; highest = "-"
    if (state["ours", id] != "ok" || state["reference", id] != "ok" || rounds < 2) return
    if (rounds_of["ours", id] != rounds || rounds_of["reference", id] != rounds) return
    for (r = 1; r <= rounds; r++) {
        if (round_median["reference", id, r] <= 0) { lowest = "-"; highest = "-"; return }
        value = round_median["ours", id, r] / round_median["reference", id, r]
        if (lowest == "-" || value < lowest) lowest = value
        if (highest == "-" || value > highest) highest = value
    }
    lowest = sprintf("%.2f", lowest); highest = sprintf("%.2f", highest)
}
END {
    # a row a program did not print (it stopped before) is "missing"; read `status` only here,
    # since reading an absent element of an awk array creates it
    for (i = 1; i <= count; i++) {
        id = order[i]
        state["ours", id] = (("ours", id) in status) ? status["ours", id] : "missing"
        state["reference", id] = (("reference", id) in status) ? status["reference", id] : "missing"
        for (s = 1; s <= 2; s++) {
            side = (s == 1) ? "ours" : "reference"
            if (state[side, id] == "ok") median[side, id] = median_of_rounds(side, id)
        }
    }
    printf "ours:      %s (%s)\n", ("ours" in library) ? library["ours"] : "?", ("ours" in version) ? version["ours"] : "?"
    printf "reference: %s (%s)\n", ("reference" in library) ? library["reference"] : "?",
        ("reference" in version) ? version["reference"] : "?"
    for (t = 1; t <= timings; t++) printf "%s%s\n", (t == 1 ? "timing:    " : "           "), timing[t]
    printf "allocator: %s (BENCH_MALLOC)\n", allocator
    printf "medians per call (per lookup where marked), the median of %d alternating rounds\n\n", rounds

    width = length("operation")
    for (i = 1; i <= count; i++) {
        id = order[i]
        name[id] = description[id] (unit[id] == "lookup" ? " (per lookup)" : "")
        if (length(name[id]) > width) width = length(name[id])
    }
    format = "%-" width "s | %12s | %12s | %14s | %12s\n"
    printf format, "operation", "ours", "reference", "ours/reference", "rounds"
    printf "%s-|-%s-|-%s-|-%s-|-%s\n", repeat("-", width), repeat("-", 12), repeat("-", 12), repeat("-", 14), repeat("-", 12)

    print "id\tdescription\tunit\tours_median_ns\treference_median_ns\tratio\tours_status\treference_status\tours_message\treference_message\tround_ratio_min\tround_ratio_max" > results
    for (i = 1; i <= count; i++) {
        id = order[i]
        ratio = "-"
        if (state["ours", id] == "ok" && state["reference", id] == "ok" && median["reference", id] + 0 > 0)
            ratio = sprintf("%.2f", median["ours", id] / median["reference", id])
        round_ratios(id)
        printf format, name[id], cell("ours", id), cell("reference", id), (ratio == "-" ? "-" : ratio "x"),
            (lowest == "-" ? "-" : lowest "-" highest)
        ours_median = (state["ours", id] == "ok") ? median["ours", id] : "-"
        reference_median = (state["reference", id] == "ok") ? median["reference", id] : "-"
        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", id, description[id], unit[id], ours_median,
            reference_median, ratio, state["ours", id], state["reference", id], message["ours", id],
            message["reference", id], lowest, highest > results
    }

    # ratios to the baseline rows, each library over its own baseline
    based = 0
    for (i = 1; i <= count; i++) {
        id = order[i]
        if ((id in baseline_of) && baseline_of[id] != id && (baseline_of[id] in seen)) based++
    }
    if (based > 0) {
        printf "\nratios to the baseline of the same program, each library over its own run\n\n"
        base_format = "%-" width "s | %-28s | %14s | %19s\n"
        printf base_format, "operation", "baseline", "ours/baseline", "reference/baseline"
        printf "%s-|-%s-|-%s-|-%s\n", repeat("-", width), repeat("-", 28), repeat("-", 14), repeat("-", 19)
        for (i = 1; i <= count; i++) {
            id = order[i]
            if (!(id in baseline_of) || baseline_of[id] == id || !(baseline_of[id] in seen)) continue
            base = baseline_of[id]
            cells["ours"] = "-"; cells["reference"] = "-"
            for (s = 1; s <= 2; s++) {
                side = (s == 1) ? "ours" : "reference"
                if (state[side, id] == "ok" && state[side, base] == "ok" && median[side, base] + 0 > 0)
                    cells[side] = sprintf("%.2fx", median[side, id] / median[side, base])
            }
            printf base_format, name[id], substr(description[base], 1, 28), cells["ours"], cells["reference"]
        }
    }

    # errors, one line per distinct message with the operations that gave it
    split("ours reference", sides, " ")
    for (s = 1; s <= 2; s++) {
        side = sides[s]
        distinct = 0
        delete ids
        delete messages
        for (i = 1; i <= count; i++) {
            id = order[i]
            if (state[side, id] == "missing") {
                text = "missing: the program stopped before this row"
            } else if (state[side, id] != "ok") {
                text = message[side, id]
            } else {
                continue
            }
            if (!(text in ids)) { messages[++distinct] = text; ids[text] = id }
            else ids[text] = ids[text] ", " id
        }
        if (distinct > 0) {
            printf "\nerrors in %s:\n", side
            for (m = 1; m <= distinct; m++) printf "  %s\n    -> %s\n", ids[messages[m]], messages[m]
        }
    }
    if (ours_failures != "") printf "\nagainst our library: %s\n", ours_failures
    if (reference_failures != "") printf "\nagainst the reference: %s\n", reference_failures
    printf "\nresults: %s\n", results
}
' "$out/reference.tsv" "$out/ours.tsv"

if [ ${#fastpath_cases[@]} -gt 0 ]; then
    BENCH_FASTPATH_CASES="${fastpath_cases[*]}" bash "$(dirname "$0")/fastpaths.sh" "$out" "$rounds" "$plain_failures"
fi

if [ -n "$reference_failures" ] || grep -q $'\terror\t' "$out/reference.tsv"; then
    echo "the reference run failed or reported errors: the benchmark itself is broken" >&2
    exit 1
fi
exit 0
