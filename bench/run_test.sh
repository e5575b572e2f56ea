#!/usr/bin/env bash
# Checks bench/run.sh on two fake programs whose times are known: the medians, the ratio and
# the range of the rounds' ratios it writes to results.tsv. Run by `make bench-test`.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ours takes 100, 200, then 300 ns for case a (its runs counted in a file), 50 for b; the
# reference 200 and 100 in every round. Like the real programs, each lists its cases with
# --list and runs those its patterns pick ("^a$" picks a alone).
cat >"$work/fake-common" <<'SCRIPT'
picked() { # ID: whether the arguments pick it
    local argument any=0
    for argument in "${arguments[@]}"; do
        case $argument in --*) continue ;; esac
        any=1
        [ "$argument" = "^$1\$" ] && return 0
    done
    [ $any -eq 0 ]
}
arguments=("$@")
if [ "${1:-}" = --list ]; then
    printf 'a\tcase a\nb\tcase b\n'
    exit 0
fi
SCRIPT
cat >"$work/fake-ours" <<SCRIPT
#!/usr/bin/env bash
. "$work/fake-common"
printf '#library\tours\n#version\t1\n#timing\tfake\n'
if picked a; then
    n=\$((\$(cat "$work/rounds" 2>/dev/null || echo 0) + 1))
    echo \$n >"$work/rounds"
    printf 'a\tcase a\tcall\t%s\t1\t1\t11\t1\tok\t\n' \$((100 * n))
fi
picked b && printf 'b\tcase b\tcall\t50\t1\t1\t11\t1\tok\t\n'
exit 0
SCRIPT
cat >"$work/fake-reference" <<SCRIPT
#!/usr/bin/env bash
. "$work/fake-common"
printf '#library\treference\n#version\t1\n#timing\tfake\n'
picked a && printf 'a\tcase a\tcall\t200\t1\t1\t11\t1\tok\t\n'
picked b && printf 'b\tcase b\tcall\t100\t1\t1\t11\t1\tok\t\n'
exit 0
SCRIPT
chmod +x "$work/fake-ours" "$work/fake-reference"

failures=0
expect() { # ROUNDS ID "median_ours median_reference ratio lowest highest"
    local got
    got=$(awk -F '\t' -v id="$2" '$1 == id { print $4, $5, $6, $11, $12 }' "$work/out$1/results.tsv")
    if [ "$got" != "$3" ]; then
        echo "FAIL: $2 with $1 rounds: got '$got', expected '$3'" >&2
        failures=$((failures + 1))
    fi
}

for rounds in 3 1; do
    rm -f "$work/rounds"
    BENCH_ROUNDS=$rounds bash "$(dirname "$0")/run.sh" "$work/out$rounds" "$work/fake" >/dev/null 2>&1
done
expect 3 a "200 200 1.00 0.50 1.50" # rounds at 0.5, 1 and 1.5
expect 3 b "50 100 0.50 0.50 0.50"
expect 1 a "100 200 0.50 - -" # one round has no range
[ $failures -eq 0 ] && echo "bench/run.sh: 3 checks passed"
exit $failures
