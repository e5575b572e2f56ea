#!/usr/bin/env bash
# Runs a test program under valgrind's memcheck and fails on its errors about memory the C
# allocator knows (a record read after free(), a block overrun, a wild pointer), or when the
# program fails.
#
# usage: valgrind_check.sh VALGRIND SUPPRESSIONS PROGRAM
#
# Errors whose address "is in a rw- anonymous segment" are counted, printed and not held
# against the program: such memory is the Go runtime's (goroutine stacks, the Go heap), which
# memcheck only follows through its guesses on stack-pointer moves. When the runtime moves a
# goroutine to a larger stack near the old one, memcheck takes the move for the end of a frame
# and marks memory the runtime then writes as inaccessible: reports on runtime.copystack and
# on the code running on that stack, at random (about one run in fifty).
set -u
valgrind=$1 suppressions=$2 program=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$valgrind" -q --log-file="$log" --suppressions="$suppressions" "$program"
status=$?

# memcheck writes "==PID== " before each line and a bare "==PID== " between errors.
awk '
    /^==[0-9]+== *$/ { flush(); next }
    /^==[0-9]+== / { block = block $0 "\n"; if ($0 ~ /Address 0x[0-9a-fA-F]+ is in a rw- anonymous segment/) go = 1; next }
    { print }  # what is not memcheck output (debug-info warnings)
    function flush() {
        if (block == "") return
        if (go) { go_errors++ } else { printf "%s", block; errors++ }
        block = ""; go = 0
    }
    END {
        flush()
        if (go_errors) printf "valgrind_check: %d report(s) on Go-managed memory left aside\n", go_errors
        exit errors ? 9 : 0
    }
' "$log"
memcheck=$?
[ "$status" -eq 0 ] || { echo "valgrind_check: $program failed (status $status)"; exit "$status"; }
exit "$memcheck"
