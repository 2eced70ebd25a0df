#!/usr/bin/env python3
"""coverage.py FIRST DIR SRC...: TAP (numbered from FIRST, no plan) on what a run of the binding built with gcov
in DIR (mk/testmode.mk's hm-V) reached: one test per SRC file, passing
when every function defined in that file ran at least once (the ones that
never did are named), with the file's lines reached as a comment. Reads
the counts with gcov --json-format (no .gcov file is written)."""
import json
import subprocess
import sys


def report(objdir, src):
    out = subprocess.run(["gcov", "--json-format", "--stdout", "-o", objdir, src],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        for f in json.loads(line)["files"]:
            if f["file"] == src:
                return f
    raise SystemExit(f"gcov has no counts of {src} in {objdir}")


def main():
    first, objdir, sources = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    fails = 0
    all_funcs = all_reached = all_lines = all_hit = 0
    for n, src in enumerate(sources, first):
        f = report(objdir, src)
        funcs = f["functions"]
        missed = sorted(fn["name"] for fn in funcs if fn["execution_count"] == 0)
        lines = f["lines"]
        hit = sum(1 for ln in lines if ln["count"] > 0)
        all_funcs += len(funcs)
        all_reached += len(funcs) - len(missed)
        all_lines += len(lines)
        all_hit += hit
        what = (f"{src}: {len(funcs) - len(missed)} of {len(funcs)} functions reached, "
                f"{hit} of {len(lines)} lines ({100.0 * hit / max(len(lines), 1):.1f}%)")
        if missed:
            fails += 1
            print(f"not ok {n} - {what}")
            print(f"# never reached: {', '.join(missed)}")
        else:
            print(f"ok {n} - {what}")
    print(f"# all: {all_reached} of {all_funcs} functions ({100.0 * all_reached / max(all_funcs, 1):.1f}%), "
          f"{all_hit} of {all_lines} lines ({100.0 * all_hit / max(all_lines, 1):.1f}%)")
    return 1 if fails else 0


sys.exit(main())
