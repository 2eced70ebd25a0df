-- A Snowflake generator on an OS wall clock that stands still (doc/design.md
-- "Snowflake"): a Lua subprocess runs with spec/native/frozen_clock.c
-- preloaded (build/frozen_clock.so, which freezes CLOCK_REALTIME only) and
-- must get nil, "snowflake: clock stuck ..." after max_wait_ms, not hang.
-- Pending where the shim was not built or the suite itself runs under a
-- preload or an emulator (ASan, qemu).
local LUA = os.getenv("MINTID_LUA") or (jit and "luajit") or ("lua" .. _VERSION:match("%d+%.%d+"))

local function quote(s)
    return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- build/frozen_clock.so, from the module's own directory on the cpath
-- (build/<lua>/?.so), or nil.
local function find_shim()
    for dir in package.cpath:gmatch("([^;]*)/%?%.so") do
        local path = dir:gsub("[^/]+$", "") .. "frozen_clock.so"
        local f = io.open(path, "rb")
        if f then
            f:close()
            return path
        end
    end
end

local SCRIPT = [[
local m = require(os.getenv("MINTID_MODULE") or "mintid")
local g = m.snowflake_generator { max_wait_ms = 300 }
for i = 1, 4096 do assert(g:next(), "ID " .. i) end
print(g:next())
]]

describe("snowflake on a frozen OS clock", function()
    local shim = find_shim()
    local usable = shim and (os.getenv("LD_PRELOAD") or "") == "" and not os.getenv("MINTID_LUA")

    if not usable then
        pending("needs build/frozen_clock.so and a suite run with no preload or emulator")
        return
    end

    it("gives nil, 'snowflake: clock stuck ...' after max_wait_ms instead of waiting for ever", function()
        local cmd = table.concat({
            "start=$(date +%s%N);",
            "env", "LUA_PATH=" .. quote(package.path), "LUA_CPATH=" .. quote(package.cpath),
            "LD_PRELOAD=" .. quote(shim), "timeout 10", LUA, "-e", quote(SCRIPT), "2>&1;",
            'echo "exit:$? ms:$((($(date +%s%N) - start) / 1000000))"',
        }, " ")
        local p = assert(io.popen(cmd))
        local out = p:read("*a")
        p:close()
        local status, ms = out:match("exit:(%d+) ms:(%d+)\n$")
        assert.are.equal("0", status, out)
        assert.is_truthy(out:find("^nil\tsnowflake: clock stuck at ms %d+ with 4096 IDs used"), out)
        assert.is_true(tonumber(ms) >= 300 and tonumber(ms) < 300 + 2000, out)
    end)
end)
