#!/usr/bin/env python3
"""Generate a C/C++ file checking OUR header against the REFERENCE prototypes.

usage: gen_prototypes.py REF_HEADER OUT.c [EXTRA_REF_HEADER ...]

REF_HEADER is the reference metatensor.h. Every function declared in it (53
in metatensor-core 0.2) becomes, in OUT.c:

  * a function pointer typed from the reference prototype text and
    initialised with the function declared by our header, e.g.
    ``mts_status_t (*const check_mts_labels_free)(const struct mts_labels_t *labels) = &mts_labels_free;``
    (in C an incompatible pointer initialisation is a warning, turned into an
    error by -Werror; in C++ it is always an error; a function missing from
    our header is an "undeclared" error);
  * after all pointers, a re-declaration copied verbatim from the
    reference, inside ``extern "C" { }`` when compiled as C++. In C, an
    incompatible re-declaration is a "conflicting types" error; in C++ a
    C-linkage re-declaration with different parameter/return types, or a
    function that our header declared with C++ linkage (missing
    ``extern "C"``), is a "conflicting declaration" error.

In addition, for every type of REF_HEADER and of the EXTRA_REF_HEADERs
(run.sh passes metatensor/dlpack/dlpack.h), OUT.c checks that:

  * every struct member has exactly the reference type
    (``T (*p) = &s->member;`` with T from the reference text), which covers
    the function-pointer members of mts_array_t;
  * every plain typedef (mts_data_origin_t, mts_realloc_buffer_t, ...) names
    exactly the reference type, and ``typedef struct TAG {...} NAME`` uses the
    same TAG;
  * (C++ only) every enumerator has the type of its enum and enums with a
    fixed underlying type (``: int32_t``) have exactly that underlying type.

The header is parsed twice, as C and as C++, so conditional parts (e.g.
``typedef int32_t mts_status_t;`` in C, ``enum mts_status_t : int32_t`` in
C++) are checked in the language where they exist.

OUT.c only needs to be compiled (-c) against OUR header with
``-Wall -Wextra -Werror`` as C (gcc -std=c11 -x c) and C++ (g++ -std=c++17
-x c++). It can also be linked against OUR library and run: main() prints the
number of checked functions and exits 0.

The generator fails (exit 1) if fewer than 53 functions are found, or if the
C and C++ views of the header disagree on the set of functions.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import abi_parse  # noqa: E402

MIN_FUNCTIONS = 53


def functions_section(parsed):
    lines = []
    # the pointers come first, so that a function missing from our header is
    # an "undeclared" error (and is not hidden by the re-declarations below)
    lines.append("/* function pointers typed from the reference prototypes, initialised with our functions */")
    for f in parsed["functions"]:
        ptr = abi_parse.pointer_declarator(f["decl"], "check_%s" % f["name"], const=True)
        lines.append("%s = &%s;" % (ptr, f["name"]))
    lines.append("")
    lines.append("/* re-declarations copied from the reference: conflicting types/linkage is an error */")
    lines.append("#ifdef __cplusplus")
    lines.append('extern "C" {')
    lines.append("#endif")
    for f in parsed["functions"]:
        lines.append(f["decl"] + ";")
    lines.append("#ifdef __cplusplus")
    lines.append('}  /* extern "C" */')
    lines.append("#endif")
    return lines


def types_section(parsed):
    """Return (lines, helper_function_names)."""
    lines = []
    helpers = []
    for s in parsed["structs"]:
        ident = s["type"].replace(" ", "_")
        if s["tag"] is not None and s["typedef"] is not None:
            fn = "abi_check_tag_%s" % ident
            helpers.append(fn)
            lines.append("static void %s(%s *a) { struct %s *b = a; (void)b; }" % (fn, s["type"], s["tag"]))
        fn = "abi_check_members_%s" % ident
        helpers.append(fn)
        lines.append("static void %s(%s *s) {" % (fn, s["type"]))
        for i, m in enumerate(s["members"]):
            decl = abi_parse.pointer_declarator(m["decl"], "m%d" % i)
            lines.append("    %s = &s->%s; (void)m%d;  /* %s */" % (decl, m["name"], i, m["name"]))
        lines.append("}")
    for t in parsed["typedefs"]:
        fn = "abi_check_typedef_%s" % t["name"]
        helpers.append(fn)
        decl = abi_parse.pointer_declarator(t["decl"], "b")
        lines.append("static void %s(%s *a) { %s = a; (void)b; }" % (fn, t["name"], decl))
    for e in parsed["enums"]:
        ident = e["type"].replace(" ", "_")
        fn = "abi_check_enum_%s" % ident
        helpers.append(fn)
        lines.append("static void %s(void) {" % fn)
        lines.append("    %s v;" % e["type"])
        for v in e["values"]:
            lines.append("    v = %s; (void)v;" % v["name"])
        lines.append("}")
        if e["underlying"]:
            lines.append("#ifdef __cplusplus")
            lines.append(
                'static_assert(std::is_same<std::underlying_type<%s>::type, %s>::value, "underlying type of %s must be %s");'
                % (e["type"], e["underlying"], e["type"], e["underlying"])
            )
            lines.append("#endif")
    return lines, helpers


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    ref_header, out_path, extras = sys.argv[1], sys.argv[2], sys.argv[3:]

    parsed = {}
    parsed_types = {}
    try:
        for mode in ("c", "c++"):
            parsed[mode] = abi_parse.parse_headers([ref_header], mode)
            parsed_types[mode] = abi_parse.parse_headers(list(extras) + [ref_header], mode)
    except (OSError, abi_parse.ParseError) as exc:
        print("gen_prototypes.py: error: %s" % exc, file=sys.stderr)
        return 1

    names = {m: [f["name"] for f in parsed[m]["functions"]] for m in parsed}
    for mode, fnames in names.items():
        if len(fnames) < MIN_FUNCTIONS:
            print(
                "gen_prototypes.py: error: only %d function declarations found in %s (%s mode), expected at least %d"
                % (len(fnames), ref_header, mode, MIN_FUNCTIONS),
                file=sys.stderr,
            )
            return 1
        if len(set(fnames)) != len(fnames):
            print("gen_prototypes.py: error: duplicate function declarations in %s" % ref_header, file=sys.stderr)
            return 1
    if names["c"] != names["c++"]:
        print("gen_prototypes.py: error: C and C++ views of %s declare different functions" % ref_header, file=sys.stderr)
        return 1

    out = []
    out.append("/* Generated by tests/abi/gen_prototypes.py from %s -- DO NOT EDIT. */" % ref_header)
    out.append("/* Compile against OUR metatensor.h with -Wall -Wextra -Werror, as C (-std=c11) and C++ (-std=c++17). */")
    out.append("#include <metatensor.h>")
    out.append("#include <stdio.h>")
    out.append("#include <stddef.h>")
    out.append("#ifdef __cplusplus")
    out.append("#include <type_traits>")
    out.append("#endif")
    out.append("")
    out.append("typedef void (*abi_generic_fn)(void);")
    out.append("")

    sections = {}
    helpers = {}
    for mode in ("c", "c++"):
        f_lines = functions_section(parsed[mode])
        t_lines, helpers[mode] = types_section(parsed_types[mode])
        sections[mode] = (f_lines, t_lines)

    def emit(c_lines, cxx_lines):
        if c_lines == cxx_lines:
            out.extend(c_lines)
        else:
            out.append("#ifdef __cplusplus")
            out.extend(cxx_lines)
            out.append("#else  /* C */")
            out.extend(c_lines)
            out.append("#endif  /* __cplusplus */")
        out.append("")

    out.append("/* ====================== functions ====================== */")
    emit(sections["c"][0], sections["c++"][0])
    out.append("/* ================ types (structs, typedefs, enums) ================ */")
    emit(sections["c"][1], sections["c++"][1])

    fnames = names["c"]
    out.append("int main(void) {")
    out.append("    const abi_generic_fn functions[] = {")
    for name in fnames:
        out.append("        (abi_generic_fn)check_%s," % name)
    out.append("    };")

    def helper_array(hs):
        res = ["    const abi_generic_fn helpers[] = {"]
        res += ["        (abi_generic_fn)%s," % h for h in hs] or ["        0,"]
        res += ["    };"]
        return res

    emit(helper_array(helpers["c"]), helper_array(helpers["c++"]))
    out.append("    size_t n_functions = 0, n_helpers = 0, i;")
    out.append("    for (i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {")
    out.append("        if (functions[i] != NULL) { n_functions++; }")
    out.append("    }")
    out.append("    for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {")
    out.append("        if (helpers[i] != NULL) { n_helpers++; }")
    out.append("    }")
    out.append('    printf("%%zu functions checked (expected %d), %%zu type checks\\n", n_functions, n_helpers);' % len(fnames))
    out.append("    return n_functions == %d ? 0 : 1;" % len(fnames))
    out.append("}")

    with open(out_path, "w", encoding="utf8") as fd:
        fd.write("\n".join(out) + "\n")
    print(
        "gen_prototypes.py: %d functions, %d C / %d C++ type checks -> %s"
        % (len(fnames), len(helpers["c"]), len(helpers["c++"]), out_path)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
