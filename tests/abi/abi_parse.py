"""Minimal parser for the metatensor C headers (python3 standard library only).

It understands exactly the subset of C used by metatensor.h,
metatensor/version.h and metatensor/dlpack/dlpack.h:

* comments (``/* */`` and ``//``) are stripped;
* preprocessor conditionals (``#if``/``#ifdef``/``#ifndef``/``#elif``/
  ``#else``/``#endif``) are evaluated for one language mode, C (C11) or C++
  (C++17), so that e.g. ``enum mts_status_t : int32_t`` (C++ only) and
  ``typedef int32_t mts_status_t;`` (C only) are seen in the right mode;
* ``extern "C" { ... }`` wrappers are flattened;
* top-level statements are classified as function declarations, plain
  typedefs, struct definitions and enum definitions.

Anything that it does not understand raises ``ParseError`` instead of being
silently skipped, so a change in the reference header shape makes the
generators fail loudly rather than check less.
"""

import re

__all__ = [
    "ParseError",
    "parse_headers",
    "replace_declarator_name",
    "pointer_declarator",
    "MODES",
]


class ParseError(Exception):
    pass


# predefined macros for the two language modes we care about
MODES = {
    "c": {"__STDC__": 1, "__STDC_VERSION__": 201112, "__linux__": 1, "__x86_64__": 1},
    "c++": {"__cplusplus": 201703, "__linux__": 1, "__x86_64__": 1},
}

_IDENT = r"[A-Za-z_]\w*"


def strip_comments(text):
    """Remove C and C++ comments, keeping string/char literals and newlines."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            if end < 0:
                raise ParseError("unterminated /* comment")
            # keep the line structure (needed by the preprocessor pass)
            out.append(" " + "\n" * text.count("\n", i, end))
            i = end + 2
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            end = text.find("\n", i)
            if end < 0:
                end = n
            out.append(" ")
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    j += 1
                j += 1
            out.append(text[i : j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _eval_pp_expr(expr, defines):
    """Evaluate a (simple) #if expression."""
    e = expr
    e = re.sub(r"defined\s*\(\s*(" + _IDENT + r")\s*\)", lambda m: " 1 " if m.group(1) in defines else " 0 ", e)
    e = re.sub(r"defined\s+(" + _IDENT + r")", lambda m: " 1 " if m.group(1) in defines else " 0 ", e)
    # integer literal suffixes
    e = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", e)

    def ident(m):
        name = m.group(0)
        value = defines.get(name, 0)
        if isinstance(value, int):
            return " %d " % value
        value = str(value).strip()
        if re.fullmatch(r"\(?\s*-?\d+\s*\)?", value):
            return " %s " % value
        return " 0 "

    e = re.sub(_IDENT, ident, e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    if not re.fullmatch(r"[\s\d()<>=!+\-*/%andort]*", e):
        raise ParseError("can not evaluate preprocessor expression: %r" % expr)
    try:
        return bool(eval(e, {"__builtins__": {}}, {}))  # noqa: S307 (sanitized above)
    except Exception as exc:  # pragma: no cover
        raise ParseError("can not evaluate preprocessor expression %r: %s" % (expr, exc))


def preprocess(text, mode_defines):
    """Evaluate conditionals, collect #defines; return (code, macros).

    ``code`` has the preprocessor lines and inactive regions replaced by empty
    lines. ``macros`` maps macro name -> replacement text (object-like macros
    defined in active regions only). #include lines are NOT followed.
    """
    defines = dict(mode_defines)
    macros = {}
    # join backslash continuations
    lines = text.replace("\\\n", " ").split("\n")
    out = []
    # each frame: [parent_active, active, some_branch_taken]
    stack = []

    def active():
        return stack[-1][1] if stack else True

    for line in lines:
        s = line.strip()
        if not s.startswith("#"):
            out.append(line if active() else "")
            continue
        out.append("")
        m = re.match(r"#\s*(\w+)\s*(.*)$", s)
        if not m:
            continue  # null directive
        kw, rest = m.group(1), m.group(2).strip()
        if kw in ("if", "ifdef", "ifndef"):
            parent = active()
            if kw == "ifdef":
                cond = rest.split()[0] in defines
            elif kw == "ifndef":
                cond = rest.split()[0] not in defines
            else:
                cond = _eval_pp_expr(rest, defines) if parent else False
            stack.append([parent, parent and cond, cond])
        elif kw == "elif":
            if not stack:
                raise ParseError("#elif without #if")
            frame = stack[-1]
            if frame[2]:
                frame[1] = False
            else:
                cond = _eval_pp_expr(rest, defines) if frame[0] else False
                frame[1] = frame[0] and cond
                frame[2] = cond
        elif kw == "else":
            if not stack:
                raise ParseError("#else without #if")
            frame = stack[-1]
            frame[1] = frame[0] and not frame[2]
            frame[2] = True
        elif kw == "endif":
            if not stack:
                raise ParseError("#endif without #if")
            stack.pop()
        elif kw == "define" and active():
            dm = re.match(r"(" + _IDENT + r")(\([^)]*\))?\s*(.*)$", rest)
            if dm is None:
                raise ParseError("bad #define: %r" % s)
            if dm.group(2) is None:  # object-like macro
                defines[dm.group(1)] = dm.group(3).strip()
                macros[dm.group(1)] = dm.group(3).strip()
        elif kw == "undef" and active():
            defines.pop(rest.split()[0], None)
            macros.pop(rest.split()[0], None)
        # include, pragma, error, warning, line: ignored
    if stack:
        raise ParseError("unterminated #if")
    return "\n".join(out), macros


def _find_matching(text, start, open_c, close_c):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_c:
            depth += 1
        elif text[i] == close_c:
            depth -= 1
            if depth == 0:
                return i
    raise ParseError("unbalanced %s%s" % (open_c, close_c))


def flatten_extern_c(code):
    """Remove ``extern "C" {`` and its matching ``}``; return (code, n_blocks)."""
    count = 0
    while True:
        m = re.search(r'extern\s+"C"\s*\{', code)
        if m is None:
            return code, count
        brace = m.end() - 1
        end = _find_matching(code, brace, "{", "}")
        code = code[: m.start()] + " " + code[brace + 1 : end] + " " + code[end + 1 :]
        count += 1


def split_top_level(text, sep=";"):
    """Split on ``sep`` outside of (), [] and {}."""
    parts = []
    depth = 0
    cur = []
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                raise ParseError("unbalanced brackets")
        if c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if depth != 0:
        raise ParseError("unbalanced brackets")
    parts.append("".join(cur))
    return parts


def normalize(s):
    """Collapse whitespace (keeps the text otherwise as written)."""
    return re.sub(r"\s+", " ", s).strip()


def declarator_name_span(decl):
    """Return (start, end) of the declared identifier in a declaration.

    Handles ``T name``, ``T name[N]``, ``T *name``, ``R name(params)`` and
    ``R (*name)(params)``.
    """
    first_paren = decl.find("(")
    if first_paren >= 0:
        fp = re.compile(r"\(\s*\*\s*(?:const\s+)?(" + _IDENT + r")\s*\)")
        m = fp.match(decl, first_paren)
        if m:
            return m.span(1)
        m = re.search(r"(" + _IDENT + r")\s*$", decl[:first_paren])
        if m is None:
            raise ParseError("can not find the declared name in %r" % decl)
        return m.span(1)
    stripped = re.sub(r"(\s*\[[^\]]*\])+\s*$", "", decl)
    m = re.search(r"(" + _IDENT + r")\s*$", stripped)
    if m is None:
        raise ParseError("can not find the declared name in %r" % decl)
    return m.span(1)


def declarator_name(decl):
    s, e = declarator_name_span(decl)
    return decl[s:e]


def replace_declarator_name(decl, replacement):
    s, e = declarator_name_span(decl)
    return decl[:s] + replacement + decl[e:]


def pointer_declarator(decl, new_name, const=False):
    """Turn the declaration of ``name`` into one of ``new_name``, a pointer to it.

    ``int x`` -> ``int *p``; ``int x[4]`` -> ``int (*p)[4]``;
    ``int f(void)`` -> ``int (*p)(void)``; ``int (*fp)(void)`` -> ``int (**p)(void)``.
    Parentheses are only added where they are needed (g++ warns about
    unnecessary ones with -Wparentheses).
    """
    s, e = declarator_name_span(decl)
    ptr = "*const " + new_name if const else "*" + new_name
    if re.match(r"\s*[(\[]", decl[e:]):
        ptr = "(" + ptr + ")"
    return decl[:s] + ptr + decl[e:]


_INTEGER_TYPE_WORDS = {
    "signed", "unsigned", "char", "short", "int", "long", "bool", "_Bool",
    "int8_t", "int16_t", "int32_t", "int64_t",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "intptr_t", "uintptr_t", "size_t", "ptrdiff_t", "intmax_t", "uintmax_t",
}


def is_integer_type(text):
    words = text.split()
    return bool(words) and all(w in _INTEGER_TYPE_WORDS for w in words)


def _parse_struct_body(body, struct_name):
    members = []
    for raw in split_top_level(body, ";"):
        decl = normalize(raw)
        if not decl:
            continue
        if "{" in decl:
            raise ParseError("nested struct/union bodies are not supported (in %s)" % struct_name)
        if len(split_top_level(decl, ",")) > 1:
            raise ParseError("multiple declarators in one member declaration are not supported (%s: %r)" % (struct_name, decl))
        if ":" in decl.replace("::", ""):
            raise ParseError("bit-fields are not supported (%s: %r)" % (struct_name, decl))
        members.append({"name": declarator_name(decl), "decl": decl})
    if not members:
        raise ParseError("struct %s has no members" % struct_name)
    return members


def _parse_enum_body(body, enum_name):
    values = []
    for raw in split_top_level(body, ","):
        item = normalize(raw)
        if not item:
            continue
        m = re.fullmatch(r"(" + _IDENT + r")\s*(?:=\s*(.+))?", item)
        if m is None:
            raise ParseError("can not parse enumerator %r in %s" % (item, enum_name))
        values.append({"name": m.group(1), "value": m.group(2)})
    return values


def parse_code(code):
    """Parse preprocessed, comment-free code into declarations."""
    result = {"functions": [], "typedefs": [], "structs": [], "enums": []}
    code, _ = flatten_extern_c(code)
    for raw in split_top_level(code, ";"):
        stmt = normalize(raw)
        if not stmt:
            continue
        is_typedef = stmt.startswith("typedef ")
        body_m = re.match(
            r"(typedef\s+)?(struct|enum)\s*(" + _IDENT + r")?\s*(?::\s*([^{]+?))?\s*\{",
            stmt,
        )
        if body_m:
            kind, tag, underlying = body_m.group(2), body_m.group(3), body_m.group(4)
            open_brace = body_m.end() - 1
            close = _find_matching(stmt, open_brace, "{", "}")
            body = stmt[open_brace + 1 : close]
            after = stmt[close + 1 :].strip()
            if is_typedef:
                if not re.fullmatch(_IDENT, after):
                    raise ParseError("unsupported typedef declarator %r" % after)
                name = after
            else:
                if after:
                    raise ParseError("unsupported declaration after %s body: %r" % (kind, after))
                name = None
            if tag is None and name is None:
                raise ParseError("anonymous %s without typedef" % kind)
            # how to spell the type in C and C++ (typedef name wins)
            spelled = name if name else "%s %s" % (kind, tag)
            entry = {"tag": tag, "typedef": name, "type": spelled}
            if kind == "struct":
                entry["members"] = _parse_struct_body(body, spelled)
                result["structs"].append(entry)
            else:
                entry["underlying"] = normalize(underlying) if underlying else None
                entry["values"] = _parse_enum_body(body, spelled)
                result["enums"].append(entry)
            continue
        if is_typedef:
            decl = stmt[len("typedef ") :].strip()
            name = declarator_name(decl)
            target = normalize(replace_declarator_name(decl, ""))
            result["typedefs"].append({"name": name, "decl": decl, "target": target})
            continue
        if re.match(r"(struct|enum|union)\s+" + _IDENT + r"$", stmt):
            continue  # forward declaration
        if "(" in stmt:
            name = declarator_name(stmt)
            # a function declaration has its name right before the first "("
            m = re.match(r"(.*?)\b" + re.escape(name) + r"\s*\((.*)\)$", stmt, re.S)
            if m is None or "(" in m.group(1):
                raise ParseError("unsupported top-level declaration: %r" % stmt)
            result["functions"].append({"name": name, "decl": stmt, "returns": m.group(1).strip(), "params": m.group(2)})
            continue
        raise ParseError("unsupported top-level statement: %r" % stmt)
    return result


def parse_headers(paths, mode):
    """Parse several header files (in order) for a language mode.

    Returns a dict with functions, typedefs, structs, enums and macros.
    """
    defines = MODES[mode]
    merged = {"functions": [], "typedefs": [], "structs": [], "enums": [], "macros": {}, "files": []}
    for path in paths:
        with open(path, encoding="utf8") as fd:
            text = fd.read()
        code, macros = preprocess(strip_comments(text), defines)
        parsed = parse_code(code)
        for key in ("functions", "typedefs", "structs", "enums"):
            for item in parsed[key]:
                item["file"] = path
            merged[key].extend(parsed[key])
        merged["macros"].update(macros)
        merged["files"].append(path)
    return merged


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
