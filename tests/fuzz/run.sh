#!/usr/bin/env bash
# run.sh DIR TARGET FUZZTIME [FLAGS...]: fuzzes one target of the Go package ./DIR for FUZZTIME.
#
# Go's fuzzing coordinator can fail a run at the end of a -fuzztime window with a bare
# "context deadline exceeded" when a worker has not answered in time (a loaded machine):
# nothing was found, no input is written, and the same run passes again. Such a run is tried
# once more; every other failure, and a second deadline, fails at once. GO names the go
# command (default: go).
set -u
dir=$1 target=$2 fuzztime=$3
shift 3
go=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Tells whether the log of a failed run is the coordinator's deadline and nothing else.
deadline_only() {
    grep -q '^    context deadline exceeded$' "$log" &&
        ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:|fuzzing process hung|fuzzing process terminated' "$log"
}

for try in 1 2; do
    "$go" test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" "$@" "./$dir" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    if [ "$status" -eq 0 ]; then
        exit 0
    fi
    if [ "$try" -eq 1 ] && deadline_only; then
        echo "=== $target: the run ended on the fuzzing coordinator's deadline without a finding; trying once more"
        continue
    fi
    exit "$status"
done
