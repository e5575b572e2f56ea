#!/usr/bin/env bash
# usage: header_standalone.sh INCLUDE_DIR [STANDARD ...]
#
# Checks that the metatensor headers in INCLUDE_DIR are self-contained and
# warning-free. For each STANDARD (default: c99 c11 c++11 c++17 c++20) it
# compiles (-c, nothing is linked):
#
#   single.c       #include <metatensor.h>               (and uses a few names)
#   twice.c        #include <metatensor.h> twice          (include guards)
#   dlpack_first.c #include <metatensor/dlpack/dlpack.h> then <metatensor.h>
#   version.c      #include <metatensor/version.h> alone
#
# C standards use gcc, C++ standards use g++, all with
#   -Wall -Wextra -Werror -pedantic      (+ -Wstrict-prototypes for C)
# The reference metatensor 0.2 headers pass -pedantic in all five standards,
# so it is on by default; ABI_PEDANTIC=0 in the environment drops it (run.sh
# does that for a standard where the reference itself is not pedantic-clean).
#
# Prints PASS/FAIL per (standard, file), the compiler output of failures,
# and a final "N passed, N failed" line; exits non-zero if any failed.
set -u

if [ "$#" -lt 1 ]; then
    echo "usage: $0 INCLUDE_DIR [STANDARD ...]" >&2
    exit 2
fi
INCLUDE_DIR=$1
shift
if [ "$#" -eq 0 ]; then
    set -- c99 c11 c++11 c++17 c++20
fi
CC=${CC:-gcc}
CXX=${CXX:-g++}
ABI_PEDANTIC=${ABI_PEDANTIC:-1}

if [ ! -f "$INCLUDE_DIR/metatensor.h" ]; then
    echo "error: $INCLUDE_DIR/metatensor.h does not exist"
    echo "0 passed, 1 failed"
    exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mts-header-standalone.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# uses a few names from every part of the header (enum, struct, typedef,
# function, dlpack type), without needing any other include
USE='
int abi_standalone_use(void);
int abi_standalone_use(void) {
    mts_array_t array;
    DLDevice device;
    mts_status_t status = MTS_SUCCESS;
    mts_data_origin_t origin = 0;
    const char *(*version)(void) = mts_version;
    array.ptr = NULL;
    device.device_type = kDLCPU;
    device.device_id = 0;
    (void)array;
    (void)origin;
    (void)version;
    return (int)status + (int)device.device_id;
}
'

printf '#include <metatensor.h>\n%s\n' "$USE" > "$TMP/single.c"
printf '#include <metatensor.h>\n#include <metatensor.h>\n%s\n' "$USE" > "$TMP/twice.c"
printf '#include <metatensor/dlpack/dlpack.h>\n#include <metatensor.h>\n%s\n' "$USE" > "$TMP/dlpack_first.c"
cat > "$TMP/version.c" <<'EOF'
#include <metatensor/version.h>
int abi_version_major(void);
int abi_version_major(void) { return METATENSOR_VERSION_MAJOR + METATENSOR_VERSION_MINOR; }
EOF

passed=0
failed=0
for std in "$@"; do
    case "$std" in
        c++*|gnu++*)
            compiler=$CXX
            lang=c++
            flags=(-Wall -Wextra -Werror)
            ;;
        c*|gnu*)
            compiler=$CC
            lang=c
            flags=(-Wall -Wextra -Werror -Wstrict-prototypes)
            ;;
        *)
            echo "error: unknown standard '$std'"
            failed=$((failed + 1))
            continue
            ;;
    esac
    if [ "$ABI_PEDANTIC" != 0 ]; then
        flags+=(-pedantic)
    fi
    for src in single twice dlpack_first version; do
        log="$TMP/$src.$std.log"
        if "$compiler" -std="$std" -x "$lang" "${flags[@]}" -I "$INCLUDE_DIR" \
            -c "$TMP/$src.c" -o "$TMP/$src.$std.o" > "$log" 2>&1; then
            echo "PASS $std $src"
            passed=$((passed + 1))
        else
            echo "FAIL $std $src: $compiler -std=$std -x $lang ${flags[*]} -I $INCLUDE_DIR -c $src.c"
            n=0
            while IFS= read -r line && [ "$n" -lt 40 ]; do
                echo "    $line"
                n=$((n + 1))
            done < "$log"
            failed=$((failed + 1))
        fi
    done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
