#!/usr/bin/env python3
"""Writes the rockspecs from tools/rockspec.in: rockspec/mintid-scm-1.rockspec
(from git) and rockspec/mintid-VERSION-1.rockspec (the tarball of `make
dist`), with the module's sources. VERSION and the sources come from the
Makefile (`make rockspecs`), which reads the version from src/mintid.h and
holds the one source list and the list of Lua files (each a module named by
its path under lua/); a rockspec of another version is removed.

    python3 tools/gen_rockspec.py VERSION FILE...           write them
    python3 tools/gen_rockspec.py --check VERSION FILE...   exit 1 if the
                                     committed ones differ (make check-rockspecs)

FILE: the module's C sources (*.c) and the Lua files (lua/*.lua).
"""
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, "tools", "rockspec.in")
OUTDIR = os.path.join(ROOT, "rockspec")
INDENT = " " * 12
WIDTH = 100

SCM_SOURCE = """\
source = {
   url = "git+https://github.com/mintid/mintid.git",
}"""

RELEASE_SOURCE = """\
-- The tarball of `make dist`, attached to the release v{v}.
source = {{
   url = "https://github.com/mintid/mintid/releases/download/v{v}/mintid-{v}.tar.gz",
   dir = "mintid-{v}",
}}"""


def source_lines(sources):
    """The binding on a line of its own, then the core's files, filled to WIDTH."""
    lines, line = [INDENT + '"%s",' % sources[0]], ""
    for s in sources[1:]:
        item = '"%s",' % s
        if line and len(INDENT + line + " " + item) > WIDTH:
            lines.append(INDENT + line)
            line = ""
        line = line + " " + item if line else item
    if line:
        lines.append(INDENT + line)
    return "\n".join(lines)


def lua_module_lines(files, indent="      "):
    """["a.b"] = "lua/a/b.lua", one per line, in the order given."""
    lines = []
    for f in files:
        name = f[len("lua/"):-len(".lua")].replace("/", ".")
        lines.append('%s["%s"] = "%s",' % (indent, name, f))
    return "\n".join(lines)


def rockspecs(version, files):
    sources = [f for f in files if f.endswith(".c")]
    lua = [f for f in files if f.endswith(".lua")]
    with open(TEMPLATE, encoding="utf-8") as f:
        template = f.read()
    body = (template.replace("@SOURCES@", source_lines(sources)).replace("@LUA_MODULES@", lua_module_lines(lua))
            .replace("@LUA_INSTALL@", lua_module_lines(lua, " " * 15)))
    return {
        "mintid-scm-1.rockspec":
            body.replace("@ROCK_VERSION@", "scm-1").replace("@SOURCE@", SCM_SOURCE),
        "mintid-%s-1.rockspec" % version:
            body.replace("@ROCK_VERSION@", version + "-1")
                .replace("@SOURCE@", RELEASE_SOURCE.format(v=version)),
    }


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) < 2 or not args[0][:1].isdigit():
        raise SystemExit(__doc__)
    wanted = rockspecs(args[0], args[1:])
    present = {os.path.basename(p) for p in glob.glob(os.path.join(OUTDIR, "mintid-*.rockspec"))}
    if check:
        stale = sorted(present - set(wanted))
        for name, text in sorted(wanted.items()):
            try:
                with open(os.path.join(OUTDIR, name), encoding="utf-8") as f:
                    if f.read() == text:
                        continue
            except OSError:
                pass
            stale.append(name)
        if stale:
            sys.stderr.write("gen_rockspec.py: stale or extra: %s (run make rockspecs)\n"
                             % " ".join("rockspec/" + s for s in stale))
            return 1
        return 0
    for name in present - set(wanted):
        os.remove(os.path.join(OUTDIR, name))
    for name, text in wanted.items():
        with open(os.path.join(OUTDIR, name), "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
