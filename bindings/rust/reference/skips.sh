# Sourced by the run scripts: read_skips FILE fills the array `skips` with a `--skip NAME`
# pair for each test listed in FILE (lines `<test binary> <full test name> <reason>`, `#`
# comments and blank lines ignored).
read_skips() {
    skips=()
    while read -r binary name _; do
        case "$binary" in '' | '#'*) continue ;; esac
        skips+=(--skip "$name")
    done < "$1"
}
