#!/usr/bin/env python3
"""Self-test of the ABI checks: do they fail when they should?

usage: selftest.py REF_INCLUDE_DIR REF_LIB WORKDIR

1. runs run.sh with the reference in both roles: everything must pass;
2. makes deliberately broken copies of the reference headers under WORKDIR
   (a const dropped, two struct members swapped, an enum value changed, a
   function/struct/member/enumerator/macro dropped, extern "C" removed, ...)
   and a stub library missing a symbol, runs run.sh with each as "ours", and
   checks that exactly the expected checks fail.

Needs only python3 (stdlib), bash, gcc/g++, nm and diff, like run.sh.
Prints "ok NAME" / "UNEXPECTED NAME" per case and "N passed, N failed".
"""

import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
H = "metatensor.h"
D = "metatensor/dlpack/dlpack.h"
V = "metatensor/version.h"

PROTO = {"prototypes-c", "prototypes-c++", "prototypes-link"}
LAYOUT = {"layout-c", "layout-c++"}
STANDALONE_C = {"standalone-c99", "standalone-c11"}
STANDALONE_CXX = {"standalone-c++11", "standalone-c++17", "standalone-c++20"}


def replace(old, new):
    def edit(text):
        if old not in text:
            raise RuntimeError("selftest: %r not found in the reference header" % old)
        return text.replace(old, new, 1)

    return edit


def regex_drop(pattern):
    def edit(text):
        result, n = re.subn(pattern, "", text, count=1, flags=re.S)
        if n != 1:
            raise RuntimeError("selftest: %r not found in the reference header" % pattern)
        return result

    return edit


def swap_lines(a, b):
    def edit(text):
        lines = text.split("\n")
        ia = [i for i, line in enumerate(lines) if a in line]
        ib = [i for i, line in enumerate(lines) if b in line]
        if len(ia) != 1 or len(ib) != 1:
            raise RuntimeError("selftest: can not swap %r and %r" % (a, b))
        lines[ia[0]], lines[ib[0]] = lines[ib[0]], lines[ia[0]]
        return "\n".join(lines)

    return edit


def chain(*edits):
    def edit(text):
        for e in edits:
            text = e(text)
        return text

    return edit


# name -> (file, edit, expected failing checks, extra environment)
CASES = {
    "const-dropped": (
        H,
        replace(
            "mts_status_t mts_labels_free(const struct mts_labels_t *labels);",
            "mts_status_t mts_labels_free(struct mts_labels_t *labels);",
        ),
        PROTO,
        {},
    ),
    "callback-const-dropped": (H, replace("const int64_t *stream,", "int64_t *stream,"), PROTO, {}),
    "members-swapped": (
        H,
        swap_lines(
            "mts_status_t (*origin)(const void *array, mts_data_origin_t *origin);",
            "mts_status_t (*device)(const void *array, DLDevice *device);",
        ),
        LAYOUT,
        {},
    ),
    "same-type-members-swapped": (H, swap_lines("uintptr_t sample_in;", "uintptr_t sample_out;"), LAYOUT, {}),
    "member-type-changed": (D, replace("  uint64_t flags;", "  uint32_t flags;"), PROTO | LAYOUT, {}),
    "member-renamed": (
        D,
        replace("struct DLPackExchangeAPIHeader* prev_api;", "struct DLPackExchangeAPIHeader* previous_api;"),
        PROTO | LAYOUT,
        {},
    ),
    "enum-value-changed": (H, replace("MTS_CALLBACK_ERROR = 254,", "MTS_CALLBACK_ERROR = 253,"), LAYOUT, {}),
    "enumerator-dropped": (D, replace("  kDLTrn = 18,\n", ""), PROTO | LAYOUT, {}),
    "cxx-enum-underlying-type-dropped": (
        H,
        regex_drop(r"#if defined\(__cplusplus\) \|\| __STDC_VERSION__ >= 202311L\n  : int32_t\n#endif[^\n]*\n"),
        {"prototypes-c++", "prototypes-link", "layout-c++"},
        {},
    ),
    "typedef-changed": (
        H,
        replace("typedef uint64_t mts_data_origin_t;", "typedef int64_t mts_data_origin_t;"),
        PROTO | LAYOUT,
        {},
    ),
    "function-dropped": (
        H,
        regex_drop(r"const struct mts_labels_t \*mts_labels_clone\(const struct mts_labels_t \*labels\);"),
        PROTO,
        {},
    ),
    "struct-dropped": (
        D,
        regex_drop(r"typedef struct DLPackExchangeAPI \{.*?\} DLPackExchangeAPI;"),
        PROTO | LAYOUT,
        {},
    ),
    "extern-c-dropped": (
        H,
        chain(
            replace('#ifdef __cplusplus\nextern "C" {\n#endif // __cplusplus', ""),
            replace('#ifdef __cplusplus\n}  // extern "C"\n#endif  // __cplusplus', ""),
        ),
        {"prototypes-c++", "prototypes-link"},
        {},
    ),
    "dlpack-macro-changed": (
        D,
        replace("#define DLPACK_MINOR_VERSION 3", "#define DLPACK_MINOR_VERSION 2"),
        LAYOUT,
        {},
    ),
    "flag-macro-dropped": (D, replace("#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)", ""), LAYOUT, {}),
    "version-minor-changed": (V, replace("#define METATENSOR_VERSION_MINOR 2", "#define METATENSOR_VERSION_MINOR 3"), LAYOUT, {}),
    "version-patch-changed": (
        V,
        lambda s: re.sub(r"(#define METATENSOR_VERSION_PATCH )\d+", r"\g<1>999", re.sub(r'"(\d+\.\d+)\.\d+', r'"\1.999', s)),
        set(),
        {},
    ),
    "version-patch-changed-strict": (
        V,
        lambda s: re.sub(r"(#define METATENSOR_VERSION_PATCH )\d+", r"\g<1>999", re.sub(r'"(\d+\.\d+)\.\d+', r'"\1.999', s)),
        LAYOUT,
        {"ABI_STRICT_VERSION": "1"},
    ),
    "stdbool-include-dropped": (
        H,
        replace("#include <stdbool.h>\n", ""),
        {"prototypes-c", "prototypes-link", "layout-c"} | STANDALONE_C,
        {},
    ),
    "not-pedantic-clean": (
        H,
        replace("typedef uint64_t mts_data_origin_t;", "typedef uint64_t mts_data_origin_t;;"),
        STANDALONE_C,
        {},
    ),
    "include-guard-dropped": (
        D,
        replace("#ifndef DLPACK_DLPACK_H_\n#define DLPACK_DLPACK_H_", "#if 1 /* no include guard */\n"),
        STANDALONE_C | STANDALONE_CXX,
        {},
    ),
}


def run_checks(ref_inc, ref_lib, our_inc, our_lib, work, env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    proc = subprocess.run(
        ["bash", os.path.join(HERE, "run.sh"), ref_inc, ref_lib, our_inc, our_lib, work],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        universal_newlines=True,
        env=env,
    )
    failed = set(re.findall(r"^FAIL ([^:\s]+)", proc.stdout, re.M))
    passed = set(re.findall(r"^PASS (\S+)", proc.stdout, re.M))
    last = proc.stdout.rstrip("\n").split("\n")[-1]
    summary_ok = re.fullmatch(r"%d passed, %d failed" % (len(passed), len(failed)), last) is not None
    rc_ok = (proc.returncode == 0) == (not failed)
    return failed, summary_ok and rc_ok, proc.stdout


def stub_library(ref_lib, work):
    """A library exporting the reference symbols but one, and one as data."""
    out = subprocess.run(["nm", "-D", "--defined-only", ref_lib], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    names = sorted({line.split()[2].split("@")[0] for line in out.stdout.splitlines() if len(line.split()) >= 3 and line.split()[1] == "T"})
    names = [n for n in names if n.startswith("mts_")]
    lines = []
    for n in names[1:]:
        lines.append("int %s = 1;" % n if n == names[1] else "void %s(void) {}" % n)
    os.makedirs(os.path.join(work, "stub"), exist_ok=True)
    src = os.path.join(work, "stub", "stub.c")
    with open(src, "w") as fd:
        fd.write("\n".join(lines) + "\n")
    lib = os.path.join(work, "stub", "libmetatensor.so")
    subprocess.run([os.environ.get("CC", "gcc"), "-shared", "-fPIC", src, "-o", lib], check=True)
    return lib


def main():
    if len(sys.argv) != 4:
        print("usage: selftest.py REF_INCLUDE_DIR REF_LIB WORKDIR", file=sys.stderr)
        return 2
    ref_inc, ref_lib, work = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    os.makedirs(work, exist_ok=True)
    passed = failed = 0

    def report(name, expected, got, ok_run, output):
        nonlocal passed, failed
        if ok_run and got == expected:
            print("ok %s (failing: %s)" % (name, ", ".join(sorted(got)) or "none"))
            passed += 1
        else:
            print("UNEXPECTED %s: expected failing %s, got %s%s" % (
                name, sorted(expected), sorted(got), "" if ok_run else " (bad summary line or exit status)"))
            print("    " + output.replace("\n", "\n    "))
            failed += 1

    got, ok_run, output = run_checks(ref_inc, ref_lib, ref_inc, ref_lib, os.path.join(work, "ref-vs-ref"), {})
    report("reference-vs-reference", set(), got, ok_run, output)

    for name, (file, edit, expected, env) in CASES.items():
        case_dir = os.path.join(work, name)
        inc = os.path.join(case_dir, "include")
        shutil.rmtree(case_dir, ignore_errors=True)
        shutil.copytree(ref_inc, inc)
        path = os.path.join(inc, file)
        with open(path, encoding="utf8") as fd:
            text = fd.read()
        new = edit(text)
        if new == text:
            raise RuntimeError("selftest: case %s did not change %s" % (name, file))
        with open(path, "w", encoding="utf8") as fd:
            fd.write(new)
        got, ok_run, output = run_checks(ref_inc, ref_lib, inc, ref_lib, os.path.join(case_dir, "work"), env)
        report(name, set(expected), got, ok_run, output)

    lib = stub_library(ref_lib, os.path.join(work, "library-missing-symbol"))
    got, ok_run, output = run_checks(ref_inc, ref_lib, ref_inc, lib, os.path.join(work, "library-missing-symbol", "work"), {})
    report("library-missing-symbol", {"prototypes-link", "symbols"}, got, ok_run, output)

    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
