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

awk -F '\t' -v results="$out/fastpaths.tsv" -v rounds="$rounds" -v cases="${BENCH_FASTPATH_CASES:-}" '
BEGIN {
    count = split(cases, words, " ")
    for (i = 1; i <= count; i++) {
        split(words[i], parts, ":")
        id[i] = parts[1]; fastpath[i] = parts[2]; wanted[parts[2], parts[1]] = 1
    }
}
FNR == 1 {
    side = FILENAME
    sub(/.*\/plain-/, "", side); sub(/\.tsv$/, "", side)
    if (FILENAME ~ /\/ours\.tsv$/) side = ""
}
/^#/ || NF < 9 || $9 != "ok" { next }
side == "" || ((side, $1) in wanted) {
    description[$1] = $2
    value[side, $1, ++rounds_of[side, $1]] = $4 + 0
}
function median(side, id,    n, i, j, v, sorted) {
    n = rounds_of[side, id]
    for (i = 1; i <= n; i++) {
        v = value[side, id, i]
        for (j = i - 1; j >= 1 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]
        sorted[j + 1] = v
    }
    return (n % 2 == 1) ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
}
function format_time(ns) {
    if (ns >= 1e6) return sprintf("%.2f ms", ns / 1e6)
    if (ns >= 1e3) return sprintf("%.2f us", ns / 1e3)
    return sprintf("%.0f ns", ns)
}
END {
    printf "\nfast paths: each case with its fast path off (MTSGO_FASTPATHS=-FASTPATH, plain) and on,\n"
    printf "medians of %d rounds; gain = plain / ours\n\n", rounds
    format = "%-8s | %-40s | %12s | %12s | %7s\n"
    printf format, "fastpath", "operation", "ours", "plain", "gain"
    print "fastpath\tid\tdescription\tours_median_ns\tplain_median_ns\tgain" > results
    for (i = 1; i <= count; i++) {
        if (rounds_of["", id[i]] == 0 || rounds_of[fastpath[i], id[i]] == 0) {
            printf format, fastpath[i], id[i], "-", "-", "-"
            continue
        }
        ours = median("", id[i]); plain = median(fastpath[i], id[i])
        gain = sprintf("%.2f", plain / ours)
        printf format, fastpath[i], description[id[i]], format_time(ours), format_time(plain), gain "x"
        printf "%s\t%s\t%s\t%.0f\t%.0f\t%s\n", fastpath[i], id[i], description[id[i]], ours, plain, gain > results
    }
    printf "\nresults: %s\n", results
}
' "$out/ours.tsv" "$out"/plain-*.tsv
if [ -n "$failures" ]; then
    echo "with a fast path off: ${failures//$'\n'/; }"
fi
