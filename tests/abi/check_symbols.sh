#!/usr/bin/env bash
# usage: check_symbols.sh REF_LIB OUR_LIB
#
# Every mts_* function exported by the reference library (nm -D
# --defined-only, symbol type T) must be exported by ours as a defined
# function (type T, W or i). Missing symbols are printed; the script ends
# with a "N passed, N failed" line (one entry per reference symbol) and exits
# non-zero if any is missing, if nm fails, or if the reference exports no
# mts_* function at all (a broken reference must not make the check pass).
#
# Informational only (never a failure): mts_* symbols that ours exports and
# the reference does not, and the SONAME of both libraries.
set -u

if [ "$#" -ne 2 ]; then
    echo "usage: $0 REF_LIB OUR_LIB" >&2
    exit 2
fi
REF_LIB=$1
OUR_LIB=$2

for lib in "$REF_LIB" "$OUR_LIB"; do
    if [ ! -f "$lib" ]; then
        echo "error: no such library: $lib"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

# fills the associative array named $2 with NAME -> nm TYPE for every defined
# dynamic symbol of library $1 (symbol versions "@..." dropped). Only bash
# builtins are used to parse the output of nm.
load_symbols() {
    local lib=$1 out line addr type name
    local -n table=$2
    if ! out=$(nm -D --defined-only "$lib"); then
        return 1
    fi
    while read -r addr type name line; do
        [ -n "${name:-}" ] || continue
        name=${name%%@*}
        table[$name]=$type
    done <<< "$out"
}

declare -A REF_SYMS=() OUR_SYMS=()
if ! load_symbols "$REF_LIB" REF_SYMS; then
    echo "error: nm failed on $REF_LIB"
    echo "0 passed, 1 failed"
    exit 1
fi
if ! load_symbols "$OUR_LIB" OUR_SYMS; then
    echo "error: nm failed on $OUR_LIB"
    echo "0 passed, 1 failed"
    exit 1
fi

ref_functions=()
for name in "${!REF_SYMS[@]}"; do
    if [[ $name == mts_* && ${REF_SYMS[$name]} == T ]]; then
        ref_functions+=("$name")
    fi
done
if [ "${#ref_functions[@]}" -eq 0 ]; then
    echo "error: the reference library $REF_LIB exports no mts_* function (type T)"
    echo "0 passed, 1 failed"
    exit 1
fi
mapfile -t ref_functions < <(printf '%s\n' "${ref_functions[@]}" | LC_ALL=C sort)

passed=0
failed=0
for sym in "${ref_functions[@]}"; do
    type=${OUR_SYMS[$sym]:-}
    case "$type" in
        T | W | i)
            passed=$((passed + 1))
            ;;
        "")
            echo "MISSING: $sym"
            failed=$((failed + 1))
            ;;
        *)
            echo "NOT A FUNCTION: $sym (exported with nm type '$type', expected T)"
            failed=$((failed + 1))
            ;;
    esac
done
echo "checked ${#ref_functions[@]} mts_* functions exported by the reference"

extra=()
for name in "${!OUR_SYMS[@]}"; do
    if [[ $name == mts_* && -z ${REF_SYMS[$name]:-} ]]; then
        extra+=("$name")
    fi
done
if [ "${#extra[@]}" -gt 0 ]; then
    echo "info: mts_* symbols exported by ours but not by the reference:"
    printf '  %s\n' "${extra[@]}"
fi

# SONAME, for information (consumers linked against the reference record it)
soname() {
    python3 - "$1" <<'EOF'
import struct, sys
try:
    with open(sys.argv[1], "rb") as fd:
        data = fd.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    name = "<none>"
    for sh in sections:
        if sh[1] == 6:  # SHT_DYNAMIC
            strtab = sections[sh[6]]
            for off in range(sh[4], sh[4] + sh[5], 16):
                tag, val = struct.unpack_from("<qQ", data, off)
                if tag == 0:
                    break
                if tag == 14:  # DT_SONAME
                    start = strtab[4] + val
                    name = data[start:data.index(b"\0", start)].decode()
    print(name)
except Exception as exc:
    print("<unknown: %s>" % exc)
EOF
}
ref_soname=$(soname "$REF_LIB")
our_soname=$(soname "$OUR_LIB")
echo "info: SONAME reference=$ref_soname ours=$our_soname"
if [ "$ref_soname" != "$our_soname" ]; then
    echo "warning: SONAME differs from the reference (not counted as a failure)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
