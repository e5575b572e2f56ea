#!/usr/bin/env bash
# usage: run.sh REF_INCLUDE_DIR REF_LIB OUR_INCLUDE_DIR OUR_LIB WORKDIR
#
# Runs every ABI-compatibility check of metatensor-go against the reference
# metatensor-core (see README.md in this directory):
#
#   prototypes-c        reference prototypes/types vs OUR header, gcc -std=c11
#   prototypes-c++      same, g++ -std=c++17 (also checks extern "C" linkage)
#   prototypes-link     the two objects above linked against OUR library and run
#   layout-c            sizeof/alignof/offsetof/enum/macro facts, C, ref vs ours
#   layout-c++          same facts, C++
#   symbols             every mts_* function of the reference library is exported by ours
#   standalone-c99, standalone-c11, standalone-c++11, standalone-c++17,
#   standalone-c++20    OUR header compiles alone, twice, after dlpack.h,
#                       -Wall -Wextra -Werror (-pedantic if the reference passes it)
#
# Prints "PASS name" or "FAIL name" (followed by the reason) per check, and a
# last line "N passed, N failed". Exit status is 0 only if nothing failed.
# Generated files and full logs are kept in WORKDIR.
#
# Environment: CC (gcc), CXX (g++), PYTHON (python3),
# ABI_STRICT_VERSION=1 to also compare METATENSOR_VERSION_PATCH and the
# METATENSOR_VERSION string (by default only MAJOR and MINOR are compared).
set -u

if [ "$#" -ne 5 ]; then
    echo "usage: $0 REF_INCLUDE_DIR REF_LIB OUR_INCLUDE_DIR OUR_LIB WORKDIR" >&2
    exit 2
fi

REF_INC=$1
REF_LIB=$2
OUR_INC=$3
OUR_LIB=$4
WORK=$5

CC=${CC:-gcc}
CXX=${CXX:-g++}
# plain ASCII quotes in compiler diagnostics (parsed below)
export LC_ALL=C
PYTHON=${PYTHON:-python3}
ABI_STRICT_VERSION=${ABI_STRICT_VERSION:-0}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

mkdir -p "$WORK/logs" || exit 2
WORK=$(cd "$WORK" && pwd)
LOGS=$WORK/logs

C_FLAGS=(-std=c11 -x c -Wall -Wextra -Werror -Wstrict-prototypes)
CXX_FLAGS=(-std=c++17 -x c++ -Wall -Wextra -Werror)
# the layout program is our own code: warnings in it are not ABI problems
LAYOUT_C_FLAGS=(-std=c11 -x c -Wall -Wextra -Wno-type-limits)
LAYOUT_CXX_FLAGS=(-std=c++17 -x c++ -Wall -Wextra -Wno-type-limits)

PASSED=0
FAILED=0

# print the first $2 lines of file $1, indented
show() {
    local file=$1 max=${2:-60} n=0 line
    [ -f "$file" ] || return 0
    while IFS= read -r line; do
        if [ "$n" -ge "$max" ]; then
            echo "    ... (truncated, full log: $file)"
            break
        fi
        echo "    $line"
        n=$((n + 1))
    done < "$file"
}

pass() {
    echo "PASS $1"
    PASSED=$((PASSED + 1))
}

fail() {
    echo "FAIL $1: $2"
    FAILED=$((FAILED + 1))
}

# names that the compiler reports as unknown (missing/renamed in our header)
missing_names() {
    local file=$1 line name
    local -A seen=()
    local names=()
    local patterns=(
        "unknown type name '([A-Za-z_][A-Za-z0-9_]*)'"
        "'([A-Za-z_][A-Za-z0-9_]*)' undeclared"
        "'([A-Za-z_][A-Za-z0-9_]*)' was not declared in this scope"
        "'([A-Za-z_][A-Za-z0-9_]*)' does not name a type"
        "'([A-Za-z_][A-Za-z0-9_:]*)' has no member named '([A-Za-z_][A-Za-z0-9_]*)'"
        "has no member named '([A-Za-z_][A-Za-z0-9_]*)'"
    )
    while IFS= read -r line; do
        for re in "${patterns[@]}"; do
            if [[ $line =~ $re ]]; then
                name=${BASH_REMATCH[1]}
                if [ -n "${BASH_REMATCH[2]:-}" ]; then
                    name="$name.${BASH_REMATCH[2]}"
                fi
                # skip the helper names of the generated files and their parameters
                case "$name" in abi_* | check_* | a | b | s | v) continue ;; esac
                if [ -z "${seen[$name]:-}" ]; then
                    seen[$name]=1
                    names+=("$name")
                fi
                break
            fi
        done
    done < "$file"
    if [ "${#names[@]}" -gt 0 ]; then
        echo "    unknown in OUR headers (missing or renamed): ${names[*]}"
    fi
}

# print the compiler diagnostics that name what our header lacks or changed
show_errors() {
    local file=$1 max=${2:-40} n=0 line
    missing_names "$file"
    while IFS= read -r line; do
        case "$line" in
            *error:* | *warning:*)
                if [ "$n" -lt "$max" ]; then
                    echo "    $line"
                fi
                n=$((n + 1))
                ;;
        esac
    done < "$file"
    if [ "$n" -gt "$max" ]; then
        echo "    ... $((n - max)) more diagnostics, full log: $file"
    fi
}

for f in "$REF_INC/metatensor.h" "$REF_INC/metatensor/dlpack/dlpack.h" "$REF_LIB"; do
    if [ ! -f "$f" ]; then
        echo "error: reference file $f does not exist"
    fi
done
for f in "$OUR_INC/metatensor.h" "$OUR_INC/metatensor/dlpack/dlpack.h" "$OUR_INC/metatensor/version.h" "$OUR_LIB"; do
    if [ ! -f "$f" ]; then
        echo "warning: our file $f does not exist (checks needing it will fail)"
    fi
done

# ------------------------------------------------------------------ generate
rm -f "$WORK/prototypes.c" "$WORK/layout.c"
GEN_PROTO_OK=0
if "$PYTHON" "$HERE/gen_prototypes.py" "$REF_INC/metatensor.h" "$WORK/prototypes.c" \
    "$REF_INC/metatensor/dlpack/dlpack.h" > "$LOGS/gen_prototypes.log" 2>&1; then
    GEN_PROTO_OK=1
fi
GEN_LAYOUT_OK=0
if "$PYTHON" "$HERE/gen_layout.py" "$REF_INC" "$WORK/layout.c" > "$LOGS/gen_layout.log" 2>&1; then
    GEN_LAYOUT_OK=1
fi

# ------------------------------------------------------------ a: prototypes
# compile-only (-c): these checks are about the header. Linking is the
# separate prototypes-link check, so that a header problem and a library
# problem are reported separately.
prototypes_check() {
    local name=$1 compiler=$2 obj=$3
    shift 3
    local flags=("$@")
    rm -f "$WORK/$obj" "$WORK/ref_$obj"
    if [ "$GEN_PROTO_OK" != 1 ]; then
        fail "$name" "gen_prototypes.py failed"
        show "$LOGS/gen_prototypes.log"
        return
    fi
    if ! "$compiler" "${flags[@]}" -I "$REF_INC" -c "$WORK/prototypes.c" -o "$WORK/ref_$obj" \
        > "$LOGS/$name.ref.log" 2>&1; then
        fail "$name" "the generated file does not compile against the REFERENCE header (generator bug?)"
        show "$LOGS/$name.ref.log"
        return
    fi
    if "$compiler" "${flags[@]}" -I "$OUR_INC" -c "$WORK/prototypes.c" -o "$WORK/$obj" \
        > "$LOGS/$name.log" 2>&1; then
        pass "$name"
        show "$LOGS/gen_prototypes.log" 1
    else
        fail "$name" "reference prototypes/types do not match OUR header ($compiler ${flags[*]} -I $OUR_INC -c $WORK/prototypes.c)"
        show_errors "$LOGS/$name.log"
    fi
}

prototypes_check prototypes-c "$CC" prototypes_c.o "${C_FLAGS[@]}"
prototypes_check prototypes-c++ "$CXX" prototypes_cxx.o "${CXX_FLAGS[@]}"

# ------------------------------------------------ a': link against our library
link_check() {
    local name=prototypes-link lib_dir ok=1
    lib_dir=$(cd "$(dirname "$OUR_LIB")" 2>/dev/null && pwd)
    rm -f "$WORK/prototypes_c" "$WORK/prototypes_cxx"
    : > "$LOGS/$name.log"
    if [ ! -f "$WORK/prototypes_c.o" ] || [ ! -f "$WORK/prototypes_cxx.o" ]; then
        fail "$name" "not run: prototypes-c and prototypes-c++ must compile first"
        return
    fi
    if [ ! -f "$OUR_LIB" ]; then
        fail "$name" "$OUR_LIB does not exist"
        return
    fi
    local pair obj exe linker
    for pair in "prototypes_c.o:prototypes_c:$CC" "prototypes_cxx.o:prototypes_cxx:$CXX"; do
        IFS=: read -r obj exe linker <<< "$pair"
        echo "\$ $linker $obj $OUR_LIB -Wl,-rpath,$lib_dir -o $exe" >> "$LOGS/$name.log"
        if ! "$linker" "$WORK/$obj" "$OUR_LIB" -Wl,-rpath,"$lib_dir" -o "$WORK/$exe" >> "$LOGS/$name.log" 2>&1; then
            ok=0
            continue
        fi
        echo "\$ LD_BIND_NOW=1 LD_LIBRARY_PATH=$lib_dir ./$exe" >> "$LOGS/$name.log"
        if ! LD_BIND_NOW=1 LD_LIBRARY_PATH="$lib_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            "$WORK/$exe" >> "$LOGS/$name.log" 2>&1; then
            ok=0
        fi
    done
    if [ "$ok" = 1 ]; then
        pass "$name"
        local line
        while IFS= read -r line; do
            [[ $line == *"functions checked"* ]] && echo "    $line"
        done < "$LOGS/$name.log"
    else
        fail "$name" "linking the prototype checks against $OUR_LIB or running them failed"
        show "$LOGS/$name.log"
    fi
}
link_check

# ---------------------------------------------------------------- b: layout
# keep the "# " informational lines out of the comparison unless strict
filter_facts() {
    local line
    while IFS= read -r line; do
        if [[ $line == "# "* ]]; then
            if [ "$ABI_STRICT_VERSION" = 1 ]; then
                echo "${line#\# }"
            fi
        else
            echo "$line"
        fi
    done
}

layout_check() {
    local name=$1 compiler=$2 tag=$3
    shift 3
    local flags=("$@")
    rm -f "$WORK/layout_ref_$tag" "$WORK/layout_our_$tag" "$WORK"/layout_*_"$tag".txt
    if [ "$GEN_LAYOUT_OK" != 1 ]; then
        fail "$name" "gen_layout.py failed"
        show "$LOGS/gen_layout.log"
        return
    fi
    if ! "$compiler" "${flags[@]}" -I "$REF_INC" "$WORK/layout.c" -o "$WORK/layout_ref_$tag" \
        > "$LOGS/$name.ref.log" 2>&1; then
        fail "$name" "the layout program does not compile against the REFERENCE headers (generator bug?)"
        show "$LOGS/$name.ref.log"
        return
    fi
    if ! "$compiler" "${flags[@]}" -I "$OUR_INC" "$WORK/layout.c" -o "$WORK/layout_our_$tag" \
        > "$LOGS/$name.log" 2>&1; then
        fail "$name" "the layout program does not compile against OUR headers: a struct, member, enumerator or typedef of the reference is missing or renamed"
        show_errors "$LOGS/$name.log"
        return
    fi
    if ! "$WORK/layout_ref_$tag" > "$WORK/layout_ref_$tag.raw.txt" 2>> "$LOGS/$name.ref.log"; then
        fail "$name" "running the reference layout program failed"
        return
    fi
    if ! "$WORK/layout_our_$tag" > "$WORK/layout_our_$tag.raw.txt" 2>> "$LOGS/$name.log"; then
        fail "$name" "running our layout program failed"
        return
    fi
    filter_facts < "$WORK/layout_ref_$tag.raw.txt" > "$WORK/layout_ref_$tag.txt"
    filter_facts < "$WORK/layout_our_$tag.raw.txt" > "$WORK/layout_our_$tag.txt"
    local n=0 line
    while IFS= read -r line; do n=$((n + 1)); done < "$WORK/layout_ref_$tag.txt"
    if diff -u --label "reference ($REF_INC)" --label "ours ($OUR_INC)" \
        "$WORK/layout_ref_$tag.txt" "$WORK/layout_our_$tag.txt" > "$LOGS/$name.diff" 2>&1; then
        pass "$name"
        echo "    $n facts identical"
    else
        fail "$name" "layout facts differ from the reference (- reference, + ours)"
        show "$LOGS/$name.diff" 80
    fi
    # informational lines (version patch/string), shown once per language
    local ref_info our_info
    ref_info=$(while IFS= read -r line; do [[ $line == "# "* ]] && printf '%s ' "${line#\# }"; done < "$WORK/layout_ref_$tag.raw.txt")
    our_info=$(while IFS= read -r line; do [[ $line == "# "* ]] && printf '%s ' "${line#\# }"; done < "$WORK/layout_our_$tag.raw.txt")
    if [ -n "$ref_info$our_info" ] && [ "$ABI_STRICT_VERSION" != 1 ]; then
        echo "    info (not compared): reference ${ref_info}| ours ${our_info}"
    fi
}

layout_check layout-c "$CC" c "${LAYOUT_C_FLAGS[@]}"
layout_check layout-c++ "$CXX" cxx "${LAYOUT_CXX_FLAGS[@]}"

# --------------------------------------------------------------- c: symbols
if bash "$HERE/check_symbols.sh" "$REF_LIB" "$OUR_LIB" > "$LOGS/symbols.log" 2>&1; then
    pass symbols
    while IFS= read -r line; do
        [[ $line == *" passed, "* ]] && echo "    symbols: $line"
    done < "$LOGS/symbols.log"
else
    fail symbols "OUR library does not export every mts_* function of the reference"
    show "$LOGS/symbols.log"
fi

# ------------------------------------------------------------ d: standalone
for std in c99 c11 c++11 c++17 c++20; do
    name=standalone-$std
    pedantic=1
    if ! ABI_PEDANTIC=1 CC=$CC CXX=$CXX bash "$HERE/header_standalone.sh" "$REF_INC" "$std" \
        > "$LOGS/$name.ref.log" 2>&1; then
        pedantic=0
    fi
    if ABI_PEDANTIC=$pedantic CC=$CC CXX=$CXX bash "$HERE/header_standalone.sh" "$OUR_INC" "$std" \
        > "$LOGS/$name.log" 2>&1; then
        pass "$name"
    else
        fail "$name" "OUR header is not self-contained/warning-free as $std"
        show "$LOGS/$name.log"
    fi
    if [ "$pedantic" = 0 ]; then
        echo "    note: the reference header is not -pedantic clean as $std, checked without -pedantic (see $LOGS/$name.ref.log)"
    fi
done

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
