#!/usr/bin/env python3
"""Generate a C/C++ program printing the layout facts of the metatensor headers.

usage: gen_layout.py REF_INCLUDE_DIR OUT.c

REF_INCLUDE_DIR is the reference include directory, containing metatensor.h,
metatensor/version.h and metatensor/dlpack/dlpack.h. Every type and constant
found there becomes one or more printed lines ("facts"):

  sizeof(T)=N, alignof(T)=N                 for every struct, enum and typedef
                                            with a complete type
  offsetof(T, member)=N, sizeof(T.member)=N for every struct member
                                            (function-pointer members and the
                                            anonymous DLPack structs included)
  issigned(T)=0|1                           C: integer typedefs and enums
  underlying(T)=signed|unsigned N           C++: enums (fixed ``: int32_t`` or not)
  ENUMERATOR=value                          for every enumerator
  MACRO=value                               for every integer/string object-like
                                            macro (DLPACK_MAJOR_VERSION,
                                            DLPACK_FLAG_BITMASK_*, ...), or
                                            MACRO=<undefined>

The headers are parsed as C and as C++ (conditional parts differ, e.g.
``typedef int32_t mts_status_t`` vs ``enum mts_status_t : int32_t``); the
program prints the C facts when compiled as C and the C++ facts when compiled
as C++.

Version macros: METATENSOR_VERSION_MAJOR and METATENSOR_VERSION_MINOR are
compared (the 0.x ABI is per minor version). METATENSOR_VERSION_PATCH and the
METATENSOR_VERSION string are printed as informational lines starting with
"# " (the implementation may claim another 0.2.x patch release); run.sh drops
them from the diff unless ABI_STRICT_VERSION=1. A compared line
METATENSOR_VERSION_consistent=1 checks that the string starts with
MAJOR.MINOR.PATCH.

run.sh compiles OUT.c twice per language (with -I the reference include dir
and with -I ours), runs both programs and diffs their outputs. If our header
lacks a struct, member, enumerator or typedef, the program does not compile
and run.sh prints the compiler's "unknown type"/"undeclared"/"no member"
diagnostics naming it.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import abi_parse  # noqa: E402

HEADERS = ["metatensor/version.h", "metatensor/dlpack/dlpack.h", "metatensor.h"]
INFO_MACROS = {"METATENSOR_VERSION", "METATENSOR_VERSION_PATCH"}
INT_MACRO = re.compile(r"[\s()0-9a-fA-FxXuUlL<>|&~+\-*]+")
STR_MACRO = re.compile(r'"(?:[^"\\]|\\.)*"')


def p(fmt, *args):
    """A printf statement; fmt is a python string that becomes a C literal."""
    return "    printf(%s%s);" % (abi_parse.c_string(fmt + "\n"), "".join(", " + a for a in args))


def struct_facts(s):
    t = s["type"]
    lines = [
        p("sizeof(%s)=%%zu" % t, "sizeof(%s)" % t),
        p("alignof(%s)=%%zu" % t, "(size_t)ABI_ALIGNOF(%s)" % t),
    ]
    for m in s["members"]:
        lines.append(p("offsetof(%s, %s)=%%zu" % (t, m["name"]), "offsetof(%s, %s)" % (t, m["name"])))
        lines.append(p("sizeof(%s.%s)=%%zu" % (t, m["name"]), "ABI_MEMBER_SIZE(%s, %s)" % (t, m["name"])))
    return lines


def signedness_facts(t, mode, is_enum):
    if mode == "c++" and is_enum:
        return [
            p(
                "underlying(%s)=%%s %%zu" % t,
                'std::is_signed<std::underlying_type<%s>::type>::value ? "signed" : "unsigned"' % t,
                "sizeof(std::underlying_type<%s>::type)" % t,
            )
        ]
    return [p("issigned(%s)=%%d" % t, "(int)((%s)-1 < (%s)0)" % (t, t))]


def enum_facts(e, mode):
    t = e["type"]
    lines = [
        p("sizeof(%s)=%%zu" % t, "sizeof(%s)" % t),
        p("alignof(%s)=%%zu" % t, "(size_t)ABI_ALIGNOF(%s)" % t),
    ]
    lines += signedness_facts(t, mode, True)
    for v in e["values"]:
        lines.append(p("%s=%%lld" % v["name"], "(long long)%s" % v["name"]))
    return lines


def typedef_facts(t, mode, complete_tags):
    target = t["target"]
    m = re.fullmatch(r"(struct|enum|union) (\w+)", target)
    if m and m.group(2) not in complete_tags:
        return []  # opaque type (mts_block_t, ...): no size; identity checked by gen_prototypes
    name = t["name"]
    lines = [
        p("sizeof(%s)=%%zu" % name, "sizeof(%s)" % name),
        p("alignof(%s)=%%zu" % name, "(size_t)ABI_ALIGNOF(%s)" % name),
    ]
    if abi_parse.is_integer_type(target):
        lines += signedness_facts(name, mode, False)
    return lines


def macro_facts(name, value):
    info = "# " if name in INFO_MACROS else ""
    if STR_MACRO.fullmatch(value):
        body = p('%s%s="%%s"' % (info, name), name)
    elif INT_MACRO.fullmatch(value) and re.search(r"\d", value):
        body = p("%s%s=%%lld" % (info, name), "(long long)(%s)" % name)
    else:
        return None
    return ["#ifdef %s" % name, body, "#else", p("%s%s=<undefined>" % (info, name)), "#endif"]


def collect(parsed, mode):
    """Return an ordered dict: group key -> list of C lines."""
    groups = {}
    complete_tags = {s["tag"] for s in parsed["structs"] if s["tag"]}
    complete_tags |= {e["tag"] for e in parsed["enums"] if e["tag"]}
    for s in parsed["structs"]:
        groups["struct " + s["type"]] = struct_facts(s)
    for e in parsed["enums"]:
        groups["enum " + e["type"]] = enum_facts(e, mode)
    for t in parsed["typedefs"]:
        lines = typedef_facts(t, mode, complete_tags)
        if lines:
            groups["typedef " + t["name"]] = lines
    return groups


def main():
    if len(sys.argv) != 3:
        print("usage: gen_layout.py REF_INCLUDE_DIR OUT.c", file=sys.stderr)
        return 2
    include_dir, out_path = sys.argv[1], sys.argv[2]
    paths = [os.path.join(include_dir, h) for h in HEADERS]
    parsed = {}
    try:
        for mode in ("c", "c++"):
            parsed[mode] = abi_parse.parse_headers(paths, mode)
    except (OSError, abi_parse.ParseError) as exc:
        print("gen_layout.py: error: %s" % exc, file=sys.stderr)
        return 1

    groups = {mode: collect(parsed[mode], mode) for mode in parsed}
    if not groups["c"] or not groups["c++"]:
        print("gen_layout.py: error: no types found in %s" % include_dir, file=sys.stderr)
        return 1

    out = []
    out.append("/* Generated by tests/abi/gen_layout.py from %s -- DO NOT EDIT. */" % include_dir)
    out.append("/* Compile as C (-std=c11) and C++ (-std=c++17), once against the reference and once against our")
    out.append("   headers, run both and diff the outputs. */")
    out.append("#include <metatensor.h>")
    out.append("#include <stdio.h>")
    out.append("#include <stddef.h>")
    out.append("#include <string.h>")
    out.append("#ifdef __cplusplus")
    out.append("#include <type_traits>")
    out.append("#define ABI_ALIGNOF(T) alignof(T)")
    out.append("#else")
    out.append("#define ABI_ALIGNOF(T) _Alignof(T)")
    out.append("#endif")
    out.append("#define ABI_MEMBER_SIZE(T, m) sizeof(((T *)0)->m)")
    out.append("")
    out.append("int main(void) {")
    out.append("#ifdef __cplusplus")
    out.append(p("language=C++"))
    out.append("#else")
    out.append(p("language=C"))
    out.append("#endif")

    keys = list(groups["c++"])
    keys += [k for k in groups["c"] if k not in groups["c++"]]
    n_facts = {"c": 0, "c++": 0}
    for key in keys:
        c_lines = groups["c"].get(key)
        cxx_lines = groups["c++"].get(key)
        out.append("    /* %s */" % key)
        if c_lines == cxx_lines:
            out.extend(c_lines)
        else:
            out.append("#ifdef __cplusplus")
            out.extend(cxx_lines or [])
            out.append("#else")
            out.extend(c_lines or [])
            out.append("#endif")
        n_facts["c"] += sum("printf" in line for line in c_lines or [])
        n_facts["c++"] += sum("printf" in line for line in cxx_lines or [])

    macros = dict(parsed["c"]["macros"])
    macros.update(parsed["c++"]["macros"])
    skipped = []
    out.append("    /* macros */")
    for name, value in macros.items():
        lines = macro_facts(name, value)
        if lines is None:
            skipped.append(name)
            continue
        out.extend(lines)
        n_facts["c"] += 1
        n_facts["c++"] += 1
    if skipped:
        out.append("    /* not integer or string constants, not compared: %s */" % ", ".join(skipped))

    version_macros = ["METATENSOR_VERSION", "METATENSOR_VERSION_MAJOR", "METATENSOR_VERSION_MINOR", "METATENSOR_VERSION_PATCH"]
    if all(m in macros for m in version_macros):
        out.append("    /* METATENSOR_VERSION must start with MAJOR.MINOR.PATCH (then end, or go on with - or +) */")
        out.append("#if defined(METATENSOR_VERSION) && defined(METATENSOR_VERSION_MAJOR) && defined(METATENSOR_VERSION_MINOR) && defined(METATENSOR_VERSION_PATCH)")
        out.append("    {")
        out.append("        char expected[64];")
        out.append("        size_t len;")
        out.append("        const char *full = METATENSOR_VERSION;")
        out.append('        snprintf(expected, sizeof(expected), "%d.%d.%d", (int)METATENSOR_VERSION_MAJOR, (int)METATENSOR_VERSION_MINOR, (int)METATENSOR_VERSION_PATCH);')
        out.append("        len = strlen(expected);")
        out.append("        int ok = strncmp(full, expected, len) == 0 && (full[len] == '\\0' || full[len] == '-' || full[len] == '+');")
        out.append(p("METATENSOR_VERSION_consistent=%d", "ok"))
        out.append("    }")
        out.append("#else")
        out.append(p("METATENSOR_VERSION_consistent=<some version macro is undefined>"))
        out.append("#endif")

    out.append("    return 0;")
    out.append("}")

    with open(out_path, "w", encoding="utf8") as fd:
        fd.write("\n".join(out) + "\n")
    n_structs = len({s["type"] for m in parsed for s in parsed[m]["structs"]})
    n_enums = len({v["name"] for m in parsed for e in parsed[m]["enums"] for v in e["values"]})
    print(
        "gen_layout.py: %d structs, %d enumerators, %d C / %d C++ facts -> %s"
        % (n_structs, n_enums, n_facts["c"], n_facts["c++"], out_path)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
