-- Lua code that runs between a check and its use (a finalizer during an
-- allocation, a hook, the debug library), and the smaller hardening rules:
-- a struct cdata that prints like an int64, an alphabet with a stray byte,
-- a metamethod called on a non-generator. Through both modules.
local h = require "helper"
local mintid = require(h.module_name)
local C = require "mintid" -- the C module, for its words where they must agree

local SECRET = "0123456789abcdef"

local finalizer = h.finalizer

-- Runs fn with the collector stepping at every allocation it can (and the
-- JIT off: LuaJIT runs no finalizer on a trace), then puts both back.
local function stormy(fn)
    if jit then jit.off(); jit.flush() end
    -- 5.4 caps the multiplier: a step every 64 bytes instead; on 5.5 a
    -- multiplier of 0 makes every step a whole cycle
    h.gc_pace(0, h.lua_num == 5.4 and 1000 or (h.lua_num >= 5.5 and 0 or 1e6), 6)
    collectgarbage() -- a cycle ends here, so the next threshold is the new pause's
    local ok, err = pcall(fn)
    h.gc_pace()
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
        if h.builtin_user_values then
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

-- Round three (issue 20): a finalizer that mints from the generator in use,
-- a constructor's random option that reaches its half-built generator, and
-- the C functions a hook finds on the frames below it.

-- The generator kinds whose calls move a state, each with what its next
-- takes and a clock that moves on at every reading (a Snowflake one never
-- waits).
local STATEFUL = {
    { "ulid_generator" }, { "uuid7_generator" }, { "relative_generator", "k" }, { "snowflake_generator" },
    { "uuid1_generator" }, { "uuid6_generator" }, { "ksuid_generator" }, { "typeid_generator", "user" },
}

local function hooked(name)
    local ms = 1700000000000
    local opts = { clock = function() ms = ms + 1; return ms end, random = function(n) return ("\7"):rep(n) end }
    if name == "relative_generator" then opts.secret = SECRET end
    return mintid[name](opts)
end

describe("a finalizer that mints from the generator in use (issue 20)", function()
    -- Each try's ID is pushed, which allocates: a cycle of the collector and
    -- so this finalizer, which mints from the same generator and so makes
    -- the ID of that try stale. It stops after CAP mints, so that a call
    -- that would try without bound returns instead of hanging.
    local CAP = 50
    local TRIES = 4

    for _, kind in ipairs(STATEFUL) do
        local name, arg = kind[1], kind[2]
        local test = h.finalizer_at_each_allocation and it
            or function(title) pending(title .. " (" .. h.NO_FINALIZER_AT_EACH_ALLOCATION .. ")") end
        test(name .. ": g:next() gives up after " .. TRIES .. " tries with an error naming the finalizer", function()
            local g = hooked(name)
            local ok, err, minted = h.next_while_a_finalizer_mints(g, arg, CAP)
            -- A Lua integer is pushed without an allocation: no finalizer
            -- runs there, no try is undone.
            if name == "snowflake_generator" and h.has_integers then
                assert(ok, tostring(err))
            else
                assert(not ok, "returned " .. tostring(err) .. " after " .. minted .. " mints of the finalizer")
                assert.are.equal(tostring(g):match("^(%S+)") .. " used by a finalizer during each of "
                    .. TRIES .. " tries to make its ID", tostring(err):match("[^:]*Generator.*$"))
                -- it gave up while the finalizer still minted
                assert(minted < CAP, minted .. " mints of the finalizer")
            end
            -- the generator goes on
            assert.is_truthy(g:next(arg))
        end)
    end
end)

describe("a constructor's random option and its half-built generator (issue 20)", function()
    -- The userdata on the frame of the constructor (the C function that
    -- called the option that calls this) whose text names the kind.
    local function half_built(tname)
        for i = 1, 50 do
            local k, v = debug.getlocal(3, i)
            if k == nil then return nil end
            if type(v) == "userdata" then
                local ok, text = pcall(tostring, v)
                if ok and text:find(tname, 1, true) then return v end
            end
        end
    end

    for _, case in ipairs({ { "uuid1_generator", "mintid.UUID1Generator" }, { "uuid6_generator", "mintid.UUID6Generator" } }) do
        local name, tname = case[1], case[2]
        it(name .. ": the random option that mints from it raises 'called again from its own random function'",
            function()
                local found, ok, got
                local g = mintid[name] { random = function(n)
                    found = half_built(tname)
                    if found then ok, got = pcall(found.next, found) end
                    return ("\0"):rep(n)
                end }
                assert(found, "the option found no " .. tname .. " on the constructor's frame")
                assert(not ok, "a half-built generator minted " .. tostring(got))
                assert.are.equal(tname .. " called again from its own random function", tostring(got):match("mintid%..*$"))
                assert.matches(h.UUID_PATTERN, g:next())
            end)

        it(name .. ": one kept by an option whose draw then fails is closed", function()
            local kept
            local ok, err = pcall(mintid[name], { random = function()
                kept = half_built(tname)
                return "x"
            end })
            assert(not ok and tostring(err):find("random(8) returned 1 bytes, want 8", 1, true), tostring(err))
            assert(kept, "the option found no " .. tname .. " on the constructor's frame")
            h.raises(function() return kept:next() end, "attempt to use a closed " .. tname)
        end)
    end
end)

describe("the C functions a hook finds below it trust no argument (issue 20)", function()
    -- Every function and value on the two frames below the hook that calls
    -- this (the C code that called the hook, and the one below).
    local function frames(found)
        for level = 3, 4 do
            local info = debug.getinfo(level, "f")
            if info then found[#found + 1] = info.func end
            for i = 1, 50 do
                local k, v = debug.getlocal(level, i)
                if k == nil then break end
                found[#found + 1] = v
            end
        end
    end

    -- What a hostile hook calls them with: nothing, a light userdata that
    -- is no context (a kind's upvalue, where the debug library shows one;
    -- and every light userdata seen on the frames, once its call is over),
    -- a full userdata and a generator.
    -- Returns how many functions it called; want: the error each must
    -- raise when its first argument is not g.
    local function probe(found, public, g, want)
        local lights, full = {}, mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV")
        local _, kind_ptr = debug.getupvalue(getmetatable(g).__index.next, 1)
        if type(kind_ptr) == "userdata" and getmetatable(kind_ptr) == nil then lights[#lights + 1] = kind_ptr end
        for _, v in ipairs(found) do
            if type(v) == "userdata" and getmetatable(v) == nil then lights[#lights + 1] = v end
        end
        local calls = 0
        for _, f in ipairs(found) do
            if type(f) == "function" and debug.getinfo(f, "S").what == "C" and not public[f] then
                for _, x in ipairs({ false, full, g, lights[1] or false, lights[2] or false, lights[#lights] or false }) do
                    x = x or nil
                    local ok, err = pcall(f, x)
                    if want and x ~= g then
                        assert(not ok and tostring(err):find(want, 1, true), tostring(x) .. ": " .. tostring(err))
                    end
                    pcall(f, x, x, x)
                    pcall(f, "\0", 1, x)
                    pcall(f, g, x)
                    calls = calls + 1
                end
            end
        end
        return calls
    end

    local function public_of(g)
        local public = {}
        for _, f in pairs(mintid) do public[f] = true end
        for _, f in pairs(C) do public[f] = true end
        for _, t in ipairs({ getmetatable(g), getmetatable(g).__index }) do
            for _, f in pairs(t) do public[f] = true end
        end
        for _, f in pairs(_G) do public[f] = true end
        public[ipairs({})] = true -- the iterator of a loop on the test's frame
        -- the C module's methods, which resty.mintid's call
        for _, t in pairs(C._ffi.methods) do
            for _, f in pairs(t) do public[f] = true end
        end
        return public
    end

    it("the functions on the frames below a random option, called with nil, a light and a full userdata", function()
        for _, make in ipairs({
            function(random) return mintid.uuid4_generator { random = random } end,
            function(random) return mintid.nanoid_generator { size = 300, random = random } end,
            function(random) return mintid.uuid1_generator { random = random } end,
        }) do
            local found, g = {}, nil
            local function random(n)
                if #found == 0 then frames(found) end
                return ("\0"):rep(n)
            end
            g = make(random)
            local public = public_of(g)
            assert.is_truthy(g:next())
            -- the result is checked by the C code that copies it: no
            -- function of mintid's is there to call
            assert.are.equal(0, probe(found, public, g)) -- once the call is over: a context would be gone
            found = {}
            g:next()
            local during = {}
            local function probing(n)
                if #during == 0 then
                    frames(during)
                    assert(probe(during, public, g) == 0, "a function of mintid's below the random option")
                end
                return ("\0"):rep(n)
            end
            g = make(probing)
            assert.is_truthy(g:next())
        end
    end)

    it("the functions on the frames below a Snowflake clock, called with nil, a light and a full userdata", function()
        for _, module in ipairs({ mintid, C }) do
            local found, probing, g = {}, false, nil
            local calls = 0
            g = module.snowflake_generator { clock = function()
                if not probing then
                    probing = true
                    frames(found)
                    calls = calls + probe(found, public_of(g), g, "SnowflakeGenerator expected")
                end
                return 1700000000000
            end }
            assert.is_truthy(g:next())
            assert(calls > 0, "no C function of mintid's found below the clock")
            calls = calls + probe(found, public_of(g), g, "SnowflakeGenerator expected") -- once the call is over
            assert.is_truthy(g:next())
        end
    end)
end)
