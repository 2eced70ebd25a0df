#!/usr/bin/env python3
"""Generates lua/resty/mintid/cdef.lua, the FFI declarations of the ABI,
from src/mintid.h: every (opaque) state typedef and every MINTID_API function, with
the header's numeric macros written out, and the status codes and text
lengths as Lua numbers. The FFI binding never holds a hand-written copy of
the header, so the two cannot drift.

    python3 tools/gen_cdef.py           write the file
    python3 tools/gen_cdef.py --check   exit 1 if the committed file differs
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "src", "mintid.h")
OUTPUT = os.path.join(ROOT, "lua", "resty", "mintid", "cdef.lua")

# The one attribute an opaque state carries, as LuaJIT's C parser reads it.
ATTRIBUTES = {"MINTID_ALIGNED": "__attribute__((aligned(8)))"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def numeric_macros(text):
    """NAME -> int for every #define whose value is an integer literal,
    possibly in parentheses or INT64_C()/UINT32_C()-style wrappers."""
    macros = {}
    for name, value in re.findall(r"^#define\s+(\w+)\s+(.+?)\s*$", text, flags=re.M):
        v = re.sub(r"U?INT\d+_C\((.*)\)", r"\1", value).strip()
        while v.startswith("(") and v.endswith(")"):
            v = v[1:-1].strip()
        try:
            macros[name] = int(v, 0)
        except ValueError:
            pass
    return macros


def expand(decl, macros):
    for name, attr in ATTRIBUTES.items():
        decl = decl.replace(name, attr)
    decl = re.sub(r"\b([A-Z][A-Z0-9_]+)\b",
                  lambda m: str(macros[m.group(1)]) if m.group(1) in macros else m.group(1), decl)
    unknown = re.findall(r"\bMINTID_\w+\b", decl)
    if unknown:
        sys.exit("gen_cdef: no value for %s in: %s" % (", ".join(unknown), decl))
    return decl


def one_line(decl):
    decl = re.sub(r"\s+", " ", decl).strip()
    decl = re.sub(r"\s*([(),\[\]])\s*", lambda m: m.group(1) + (" " if m.group(1) == "," else ""), decl)
    return re.sub(r"\)\)(?=\w)", ")) ", decl)  # after an __attribute__


def wrap(decl, width=100):
    """decl as lines of at most width characters, broken after commas."""
    lines, line = [], ""
    for part in re.split(r"(?<=, )", decl):
        if line and len(line) + len(part) > width:
            lines.append(line.rstrip())
            line = "    "
        line += part
    return lines + [line]


def generate():
    raw = open(HEADER, encoding="utf-8").read()
    body = strip_comments(raw)
    macros = numeric_macros(body)
    # Conditional blocks hold only macro definitions: drop preprocessor lines.
    body = "\n".join(l for l in body.split("\n") if not l.lstrip().startswith("#"))

    lines, structs, functions = [], [], []
    for fields, name in re.findall(r"typedef struct \{(.*?)\}\s*(\w+);", body, flags=re.S):
        structs.append(name)
        lines.append("typedef struct {")
        for field in fields.split(";"):
            if field.strip():
                lines.append("    " + one_line(expand(field, macros)) + ";")
        lines.append("} %s;" % name)
    for decl in re.findall(r"\bMINTID_API\s+([^;{]*);", body):
        decl = one_line(expand(decl, macros))
        functions.append(re.search(r"(\w+)\(", decl).group(1))
        lines.extend(wrap(decl + ";"))

    consts = sorted((n, v) for n, v in macros.items()
                    if re.match(r"MINTID_(OK|E[A-Z]+|\w+_SIZE|\w+_LEN|\w+_MAX|MAX_\w+)$", n)
                    and abs(v) < 2 ** 53)
    out = ["-- resty.mintid.cdef: the FFI declarations of mintid's ABI.",
           "-- Generated from src/mintid.h by tools/gen_cdef.py (make cdef): do not edit.",
           "return {",
           "    cdef = [[",
           *lines,
           "]],",
           "    -- every struct declared above, checked against mintid_abi_sizeof",
           "    structs = {",
           *('        "%s",' % s for s in structs),
           "    },",
           "    functions = {",
           *('        "%s",' % f for f in functions),
           "    },",
           "    constants = {",
           *("        %s = %d," % (n, v) for n, v in consts),
           "    },",
           "}",
           ""]
    return "\n".join(out)


def main():
    text = generate()
    if sys.argv[1:] == ["--check"]:
        try:
            old = open(OUTPUT, encoding="utf-8").read()
        except OSError:
            old = None
        if old != text:
            print("lua/resty/mintid/cdef.lua differs from a fresh generation from src/mintid.h: "
                  "run make cdef")
            return 1
        return 0
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
