-- Lua code that runs between a check and its use (a finalizer during an
-- allocation, a hook, the debug library), and the smaller hardening rules:
-- a struct cdata that prints like an int64, an alphabet with a stray byte,
-- a metamethod called on a non-generator. Through both modules.
local h = require "helper"
local mintid = require(h.module_name)
local C = require "mintid" -- the C module, for its words where they must agree

local SECRET = "0123456789abcdef"

-- An object whose finalizer calls f (5.1/LuaJIT: a newproxy).
local function finalizer(f)
    if newproxy then
        local p = newproxy(true)
        getmetatable(p).__gc = f
        return p
    end
    return setmetatable({}, { __gc = f })
end

-- Runs fn with the collector stepping at every allocation it can (and the
-- JIT off: LuaJIT runs no finalizer on a trace), then puts both back.
local function stormy(fn)
    if jit then jit.off(); jit.flush() end
    local pause = collectgarbage("setpause", 0)
    local stepmul = collectgarbage("setstepmul", 1e6)
    -- 5.4 caps the multiplier; a step every 64 bytes instead
    if _VERSION == "Lua 5.4" then collectgarbage("incremental", 0, 1000, 6) end
    collectgarbage() -- a cycle ends here, so the next threshold is the new pause's
    local ok, err = pcall(fn)
    if _VERSION == "Lua 5.4" then collectgarbage("incremental", 200, 100, 13) end
    collectgarbage("setpause", pause)
    collectgarbage("setstepmul", stepmul)
    if jit then jit.on() end
    collectgarbage()
    assert(ok, err)
end

-- rounds of: a fresh object from make(), garbage whose finalizer closes it
-- (and calls other mintid functions), and calls of call(obj) until it is
-- closed; check(during, ok, results...) sees each, during telling whether
-- the finalizer closed obj while call(obj) ran.
local function close_during(rounds, make, call, check)
    local closings = 0
    local inside = false
    local function marked(obj)
        local a, b = call(obj)
        inside = false -- here: 5.1's pcall steps the collector after its function returns
        return a, b
    end
    stormy(function()
        for round = 1, rounds do
            local obj = make()
            local closed, during = false, false
            -- Closed at the round's cycle of the collector after this one
            -- (a finalizer that re-arms), so that the rounds close obj at
            -- the first, second... allocation of a call.
            local function arm(left)
                finalizer(function()
                    if left > 0 then return arm(left - 1) end
                    mintid.parse_snowflake("18446744073709551615")
                    getmetatable(obj).__gc(obj)
                    closed, during = true, inside
                end)
            end
            arm((round - 1) % 8)
            for _ = 1, 5000 do
                inside = true
                local ok, a, b = pcall(marked, obj)
                inside = false
                check(during, ok, a, b)
                if closed then break end
                local _ = {} -- a call that allocates nothing is closed between calls
            end
            if closed then closings = closings + 1 end
        end
    end)
    -- the storm did close objects between calls, or this proved nothing
    assert(closings > 0, "no object was closed")
end

-- A call either gives a good result or raises that its object is closed;
-- it raises when its object was closed while it ran.
local function good_or_closed(good)
    return function(during, ok, a, b)
        assert(not (during and ok), "closed during the call, yet it returned " .. tostring(a))
        if ok then
            assert(good(a, b), "a wrong result: " .. tostring(a) .. " " .. tostring(b))
        else
            assert(tostring(a):find("attempt to use a closed", 1, true), tostring(a))
        end
    end
end

describe("Lua code between a check and its use (issue 15)", function()
    it("parse_snowflake returns its own parts when a finalizer calls it too", function()
        stormy(function()
            local function other() mintid.parse_snowflake("18446744073709551615") end
            for _ = 1, 150 do
                -- many pending: a step runs one, so each allocation may
                for _ = 1, 10 do finalizer(other) end
                local ts, mid, seq = mintid.parse_snowflake("4096")
                assert(ts == 0 and mid == 1 and seq == 0, tostring(ts) .. " " .. tostring(mid) .. " " .. tostring(seq))
                ts, mid, seq = mintid.parse_snowflake("4096", 7)
                assert(ts == 7 and mid == 1 and seq == 0, tostring(ts))
            end
        end)
    end)

    it("parse_* returns a value of its own while finalizers parse too", function()
        local texts = {
            parse_ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            parse_uuid = "0189f7b0-7a7e-7b5e-9c3d-5a6b7c8d9e0f",
            parse_relative = tostring(C.relative_from(7, 1, 2)),
        }
        for name, text in pairs(texts) do
            local on = true
            local function arm()
                finalizer(function()
                    if not on then return end
                    mintid[name](text)
                    arm()
                end)
            end
            stormy(function()
                arm()
                for _ = 1, 300 do
                    local v = mintid[name](text)
                    assert(tostring(v) == text, name .. " gave " .. tostring(v))
                end
            end)
            on = false
        end
    end)

    it("a relative generator closed during g:next(key), g:tag(key) never mints with a wiped key", function()
        local prefix = C.relative_generator({ secret = SECRET }):prefix("42")
        local tag = C.relative_tag(SECRET, "", "42")
        local keys = { 42, "42" }
        if jit then keys[#keys + 1] = require("ffi").new("int64_t", 42) end
        for _, key in ipairs(keys) do
            close_during(6, function() return mintid.relative_generator { secret = SECRET } end,
                function(g) return g:next(key) end,
                good_or_closed(function(id) return id:sub(1, 7) == prefix end))
            close_during(6, function() return mintid.relative_generator { secret = SECRET } end,
                function(g) return g:tag(key) end,
                good_or_closed(function(t) return t == tag end))
        end
    end)

    it("a generator with hooks closed during a call never falls back to the OS clock or pool", function()
        local zeros = function(n) return ("\0"):rep(n) end
        close_during(6, function()
            return mintid.ulid_generator { clock = function() return 1 end, random = zeros }
        end, function(g) return g:next() end,
            good_or_closed(function(id) return id:sub(1, 10) == "0000000001" end))
        close_during(6, function()
            return mintid.relative_generator { secret = SECRET, clock = function() return 1 end, random = zeros }
        end, function(g) return g:next("k") end,
            good_or_closed(function(id) return id:sub(8, 17) == "0000000001" end))
        for _, size in ipairs({ 21, 300 }) do
            close_during(6, function() return mintid.nanoid_generator { size = size, random = zeros } end,
                function(g) return g:next() end,
                good_or_closed(function(id) return id == ("u"):rep(size) end))
        end
    end)

    it("a plain generator closed during a call raises (even at the push of its ID)", function()
        for _, name in ipairs({ "ulid_generator", "uuid7_generator", "uuid4_generator", "snowflake_generator" }) do
            close_during(10, function() return mintid[name]() end, function(g) return g:next() end,
                good_or_closed(function(id) return id ~= nil end))
        end
        for _, size in ipairs({ 21, 300 }) do
            close_during(16, function() return mintid.nanoid_generator { size = size } end,
                function(g) return g:next() end, good_or_closed(function(id) return #id == size end))
        end
        for _, method in ipairs({ "next_value", "prefix" }) do
            close_during(4, function() return mintid.relative_generator { secret = SECRET } end,
                function(g) return g[method](g, "k") end, good_or_closed(function(v) return v ~= nil end))
        end
        close_during(4, function() return mintid.ulid_generator() end, function(g) return g:next_value() end,
            good_or_closed(function(v) return v ~= nil end))
    end)

    it("a Snowflake generator closed between two readings of its clock raises that it is closed", function()
        -- The clock reads 100, then 99 (behind: the core reads it again, and
        -- a return hook of the C function that ran it closes the generator
        -- in between), then 100. LuaJIT runs no return hook of a C function,
        -- nor anything else there: its call just succeeds.
        for _, module in ipairs({ mintid, C }) do
            local readings, i, closed = { 100, 99, 100 }, 0, false
            local g = module.snowflake_generator { clock = function() i = i + 1; return readings[i] or 100 end }
            assert(g:next())
            local gc = getmetatable(g).__gc
            debug.sethook(function()
                if i == 2 and not closed and debug.getinfo(2, "S").what == "C" then
                    closed = true
                    gc(g)
                end
            end, "r")
            local ok, err = pcall(g.next, g)
            debug.sethook()
            if closed then
                assert(not ok and tostring(err):find("attempt to use a closed", 1, true), tostring(err))
            else
                assert(jit and ok, tostring(err))
            end
        end
    end)
end)

describe("a hook's value is checked where it is used (issue 15)", function()
    -- The random option's user value replaced through the debug library.
    local function replace_random(g, f)
        if debug.setuservalue and _VERSION == "Lua 5.4" then
            assert(debug.setuservalue(g, f, 2))
        elseif debug.getuservalue then
            debug.getuservalue(g)[2] = f
        else
            debug.getfenv(g)[2] = f
        end
    end

    it("a random option replaced by one returning nil, a short string or a number raises", function()
        local bad = {
            { function() return nil end, " returned nil, want " },
            { function() return "x" end, " returned 1 bytes, want " },
            { function() return 5 end, " returned number, want " },
        }
        for _, case in ipairs(bad) do
            for _, make in ipairs({
                function() return mintid.uuid4_generator { random = function(n) return ("\0"):rep(n) end } end,
                function() return mintid.nanoid_generator { size = 16, random = function(n) return ("\0"):rep(n) end } end,
            }) do
                local g = make()
                replace_random(g, case[1])
                h.raises(function() return g:next() end, "random(", case[2])
            end
        end
    end)
end)

describe("smaller rules (issue 15)", function()
    if jit then
        it("a struct cdata whose __tostring says 5LL is not an integer", function()
            local ffi = require "ffi"
            pcall(ffi.cdef, "typedef struct { int x; } mintid_spec15_liar;")
            local Liar = ffi.metatype("mintid_spec15_liar", { __tostring = function() return "5LL" end })
            local g = mintid.relative_generator { secret = SECRET }
            h.raises(function() return mintid.nanoid(Liar()) end, "integer expected, got cdata")
            h.raises(function() return g:tag(Liar()) end, "key must be a string or a 64-bit integer, got cdata")
            h.raises(function() return mintid.parse_snowflake(Liar()) end, "integer or decimal string expected")
            assert(#mintid.nanoid(ffi.new("int64_t", 5)) == 5)
        end)
    end

    it("an alphabet with a byte that is not UTF-8 is bytes, whatever characters its other bytes form", function()
        for _, a in ipairs({ "\206\177\209\143\255", "\255\206\177", "ab\195\169\128", "ab\255\128" }) do
            assert.is_true(h.only_symbols_of(mintid.nanoid(8, a), a), h.tohex(a))
            assert.is_true(h.only_symbols_of(mintid.nanoid_generator({ alphabet = a }):next(), a), h.tohex(a))
        end
        h.raises(function() return mintid.nanoid(8, "ab\195\169") end, "multi-byte UTF-8 character at byte 3")
        h.raises(function() return mintid.nanoid_generator { alphabet = "ab\195\169" } end, "at byte 3")
    end)

    it("a generator's __gc, __close and __tostring on a non-generator raise as the C module's do", function()
        for _, name in ipairs({ "ulid_generator", "relative_generator", "nanoid_generator" }) do
            local opts = name == "relative_generator" and { secret = SECRET } or nil
            local mt, c_mt = getmetatable(mintid[name](opts)), getmetatable(C[name](opts))
            for _, m in ipairs({ "__gc", "__close", "__tostring" }) do
                local _, want = pcall(c_mt[m], 5)
                local ok, got = pcall(mt[m], 5)
                assert(not ok, name .. "." .. m .. "(5) raised nothing")
                assert(got == want, got)
            end
        end
    end)
end)
