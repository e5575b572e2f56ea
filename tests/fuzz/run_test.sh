#!/usr/bin/env bash
# run_test.sh: checks tests/fuzz/run.sh on fake go commands: a run that ends on the fuzzing
# coordinator's deadline is tried once more, any other failure is not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# fake NAME: a go command printing, on its Nth call, the output of the Nth argument given
# here ("pass", "deadline" or "finding"), counting its calls in $work/NAME.calls.
fake() {
    local name=$1
    shift
    {
        echo '#!/usr/bin/env bash'
        echo "calls=\$(( \$(cat $work/$name.calls 2>/dev/null || echo 0) + 1 ))"
        echo "echo \$calls > $work/$name.calls"
        echo "outcomes=($*)"
        echo 'case ${outcomes[$((calls - 1))]} in'
        echo '  pass) echo PASS; exit 0 ;;'
        echo '  deadline) printf -- "--- FAIL: FuzzX (11.03s)\n    context deadline exceeded\nFAIL\n"; exit 1 ;;'
        echo '  finding) printf -- "--- FAIL: FuzzX (0.20s)\n    x_test.go:12: wrong\n    Failing input written to testdata/fuzz/FuzzX/abc\n    context deadline exceeded\nFAIL\n"; exit 1 ;;'
        echo 'esac'
    } > "$work/$name"
    chmod +x "$work/$name"
}

# expect NAME STATUS CALLS: run.sh with the fake NAME exits with STATUS (0 or not) after CALLS calls.
expect() {
    local name=$1 want=$2 calls=$3
    GO=$work/$name bash "$here/run.sh" dir FuzzX 1s > "$work/$name.out" 2>&1
    local status=$?
    local got=$(cat "$work/$name.calls")
    if { [ "$want" = 0 ] && [ "$status" -ne 0 ]; } || { [ "$want" != 0 ] && [ "$status" -eq 0 ]; } || [ "$got" != "$calls" ]; then
        echo "FAIL $name: exit status $status, $got calls (wanted status $want, $calls calls)"
        failures=$((failures + 1))
    fi
}

fake passes pass
expect passes 0 1
fake flake_once deadline pass
expect flake_once 0 2
fake flake_twice deadline deadline pass
expect flake_twice 1 2
fake finding finding pass
expect finding 1 1

if [ "$failures" -ne 0 ]; then
    exit 1
fi
echo "tests/fuzz/run.sh: 4 checks passed"
