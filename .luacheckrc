-- luacheck configuration (`make lint`, run by `make test`). By folder, not
-- by file, so that new files are covered as they come.

-- Library code, the command-line tool and the examples run unchanged on
-- Lua 5.1-5.5 and LuaJIT: only the globals every one of them has.
std = "min"
max_line_length = 120

-- OpenResty modules (resty.*) may use ngx and LuaJIT's globals.
files["lua/resty"] = { std = "ngx_lua" }

-- The specs and the benchmark test for a Lua's features at run time
-- (math.type, setfenv, jit), so they see every version's globals; specs
-- also run inside nginx (OpenResty's ngx).
files["spec"] = {
    std = "max+busted+ngx_lua",
    max_line_length = 140,
    -- an empty branch that holds only a comment ("comment or blank line:
    -- nothing to do") is there on purpose
    ignore = { "542" },
}
files["bench"] = { std = "max", max_line_length = 140 }
-- A wrk script: wrk calls the global functions it defines and lends it
-- `wrk` and the per-thread values set in setup.
files["spec/nginx/load.lua"] = {
    globals = { "setup", "init", "request", "done" },
    read_globals = { "wrk", "first" },
}

files["spec/haproxy/load.lua"] = files["spec/nginx/load.lua"]
-- Lua files run by haproxy, which lends them `core` (the test's record.lua
-- wraps two of its functions).
files["spec/haproxy"] = { globals = { "core" } }

-- A LÖVE game, which LÖVE lends `love`.
files["spec/love"] = { globals = { "love" } }
-- The rest of the game's main.lua, after doc/guide.md's block, whose
-- locals it uses (spec/love/run.sh joins them).
files["spec/love/game.lua"] = { globals = { "love" }, read_globals = { "mintid", "machine_ids", "flakes" } }

-- `luacheck .` checks these: every Lua file of the folders, and bin/'s
-- scripts, which have no .lua extension.
include_files = { "lua/**/*.lua", "bin/*", "spec/**/*.lua", "examples/**/*.lua", "bench/**/*.lua", "tools/**/*.lua" }
exclude_files = { "build", "luarocks-tree" }
-- Run by examples/embed/host.c, which lends it `tap`.
files["examples/embed/script.lua"] = { read_globals = { "tap" } }
