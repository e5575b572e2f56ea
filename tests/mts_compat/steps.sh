# Shared by run.sh and go.sh (sourced first): their arguments and work directory, steps whose
# output goes to a log, and the summary.
#
# The sourcing script sets `here` (this directory) and `python` (the python of the
# reference's virtual environment); `work_directory` sets `work` and NAME; `failed` lists the
# steps that failed.
set -u
export PYTHONDONTWRITEBYTECODE=1

# arguments USAGE ARGS...: exits with the usage unless ARGS are as many as the words of USAGE
arguments() {
    local usage=$1 words
    shift
    read -ra words <<<"$usage"
    if [ $# -ne ${#words[@]} ]; then
        echo "usage: $0 $usage" >&2
        exit 2
    fi
}

# work_directory DIR NAME: empties DIR, where the logs go (DIR/logs), as `work`; NAME is what
# the summary calls the whole
work_directory() {
    rm -rf "$1"
    mkdir -p "$1/logs"
    work=$(cd "$1" && pwd)
    NAME=$2
}

failed=()
start=$SECONDS

# reference SCRIPT ARGS...: runs a script of this directory with the reference's own library
reference() { env -u MTS_LIBRARY "$python" "$here/$1" "${@:2}"; }

# step ID DESCRIPTION COMMAND...: runs COMMAND, its output going to $work/logs/ID.log; prints
# PASS with the last line of the log, or FAIL with the log's FAIL lines (or its last lines)
step() {
    local id=$1 description=$2
    shift 2
    local log="$work/logs/$id.log"
    if "$@" >"$log" 2>&1; then
        echo "PASS ($id) $description"
        tail -n 1 "$log" | cut -c 1-300 | sed 's/^/    /'
    else
        echo "FAIL ($id) $description"
        if grep -q '^FAIL' "$log"; then
            grep '^FAIL' "$log" | head -n 15 | cut -c 1-300 | sed 's/^/    /'
            local count
            count=$(grep -c '^FAIL' "$log")
            [ "$count" -gt 15 ] && echo "    ... $((count - 15)) more"
        else
            tail -n 8 "$log" | cut -c 1-300 | sed 's/^/    /'
        fi
        echo "    (log: $log)"
        failed+=("$id")
    fi
}

# summary: PASS or FAIL for the whole, with the time taken; returns 1 when a step failed
summary() {
    local elapsed=$((SECONDS - start))
    if [ ${#failed[@]} -eq 0 ]; then
        echo "$NAME: PASS, every step (${elapsed}s)"
    else
        echo "$NAME: FAIL, steps ${failed[*]} (${elapsed}s; logs in $work/logs)"
        return 1
    fi
}
