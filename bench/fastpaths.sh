#!/usr/bin/env bash
# Prints the gain of each fast path case of bench/run.sh (BENCH_FASTPATH_CASES, ID:FASTPATH
# words): the case's median with that fast path off (OUT_DIR/plain-FASTPATH.tsv) over its
# median with every fast path on (OUT_DIR/ours.tsv), each the median of the rounds' medians;
# writes OUT_DIR/fastpaths.tsv:
#   fastpath  id  description  ours_median_ns  plain_median_ns  gain
# A fast path is worth its code when its cases gain 10% or more (1.10x).
#
# usage: BENCH_FASTPATH_CASES=... bench/fastpaths.sh OUT_DIR ROUNDS PLAIN_FAILURES
set -u
out=$1
rounds=$2
failures=$(printf '%s' "$3" | sed '/^$/d' | sort -u)

# One "SIDE<TAB>ID<TAB>MEDIAN<TAB>DESCRIPTION" line per round of a wanted case, SIDE being
# "ours" or the fast path switched off; sorted so that the rounds of a case follow each other
# in increasing order.
rounds_of_cases() {
    awk -F '\t' -v OFS='\t' '
    FNR == 1 {
        side = FILENAME
        sub(/.*\/plain-/, "", side); sub(/\.tsv$/, "", side)
        if (FILENAME ~ /\/ours\.tsv$/) side = "ours"
    }
    /^#/ || NF < 9 || $9 != "ok" { next }
    { print side, $1, $4, $2 }
    ' "$out/ours.tsv" "$out"/plain-*.tsv | sort -t $'\t' -k1,1 -k2,2 -k3,3g
}

rounds_of_cases | awk -F '\t' -v results="$out/fastpaths.tsv" -v rounds="$rounds" \
    -v cases="${BENCH_FASTPATH_CASES:-}" '
# the values of one (side, id) arrive in order: the median is picked when the next one starts
function close_group() {
    if (n > 0) median[group] = (n % 2 == 1) ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
    n = 0
}
{
    if ($1 SUBSEP $2 != group) { close_group(); group = $1 SUBSEP $2 }
    values[++n] = $3 + 0
    description[$2] = $4
}
function format_time(ns) {
    if (ns >= 1e6) return sprintf("%.2f ms", ns / 1e6)
    if (ns >= 1e3) return sprintf("%.2f us", ns / 1e3)
    return sprintf("%.0f ns", ns)
}
END {
    close_group()
    printf "\nfast paths: each case with its fast path off (MTSGO_FASTPATHS=-FASTPATH, plain) and on\n"
    printf "(ours), medians of %d rounds; gain = plain / ours\n\n", rounds
    format = "%-8s | %-40s | %12s | %12s | %7s\n"
    printf format, "fastpath", "operation", "ours", "plain", "gain"
    print "fastpath\tid\tdescription\tours_median_ns\tplain_median_ns\tgain" > results
    count = split(cases, words, " ")
    for (i = 1; i <= count; i++) {
        split(words[i], parts, ":")
        id = parts[1]; fastpath = parts[2]
        if (!(("ours", id) in median) || !((fastpath, id) in median)) {
            printf format, fastpath, id, "-", "-", "-"
            continue
        }
        ours = median["ours", id]; plain = median[fastpath, id]
        gain = sprintf("%.2f", plain / ours)
        printf format, fastpath, description[id], format_time(ours), format_time(plain), gain "x"
        printf "%s\t%s\t%s\t%.0f\t%.0f\t%s\n", fastpath, id, description[id], ours, plain, gain > results
    }
    printf "\nresults: %s\n", results
}
'
if [ -n "$failures" ]; then
    echo "with a fast path off: ${failures//$'\n'/; }"
fi
