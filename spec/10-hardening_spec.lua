-- Hardening (issue 10): strict text types, options read as Lua reads a
-- field, parse_snowflake's range, a bounded Snowflake wait, closing a
-- generator from its own hook, and LuaJIT's int64 cdata where a number is
-- accepted. Out-of-memory safety is spec/native/test_alloc.c's.
local h = require "helper"
local mintid = require(h.module_name)

local SECRET = "0123456789abcdef" -- 16 bytes
local ZERO10 = ("\0"):rep(10)
local T = 1700000000000

-- The message of a call that must raise, and must name argument `pos`.
local function arg_error(fn, pos, ...)
    local msg = h.raises(fn, ...)
    assert.is_truthy(msg:find("bad argument #" .. pos, 1, true), msg)
    return msg
end

local function snowflake_parts(id, epoch)
    local ts, mid, seq = mintid.parse_snowflake(id, epoch)
    assert(ts ~= nil, "parse_snowflake(" .. tostring(id) .. "): nil, " .. tostring(mid))
    return ts, mid, seq
end

describe("hardening", function()
    describe("text arguments are strings on every Lua", function()
        -- call, argument position, the call with a number there
        local cases = {
            { "parse_ulid", 1, function() return mintid.parse_ulid(12345678901234) end },
            { "parse_uuid", 1, function() return mintid.parse_uuid(1) end },
            { "parse_relative", 1, function() return mintid.parse_relative(1.5) end },
            { "ulid_to_uuid", 1, function() return mintid.ulid_to_uuid(1) end },
            { "uuid_to_ulid", 1, function() return mintid.uuid_to_ulid(1) end },
            { "ulid_from", 2, function() return mintid.ulid_from(0, 1234567890) end },
            { "ulid_from_bytes", 1, function() return mintid.ulid_from_bytes(12345678901234.0) end },
            { "uuid_from_bytes", 1, function() return mintid.uuid_from_bytes(1234567890123456) end },
            { "nanoid", 2, function() return mintid.nanoid(3, 1.5) end },
            { "relative_tag", 1, function() return mintid.relative_tag(1234567890123456, "", "k") end },
            { "relative_tag", 2, function() return mintid.relative_tag(SECRET, 1, "k") end },
        }
        for _, c in ipairs(cases) do
            it(c[1] .. " raises 'string expected, got number' for a number as argument #" .. c[2], function()
                arg_error(c[3], c[2], "string expected, got number")
            end)
        end

        it("numbers stay accepted where a number is a key, ms or size", function()
            assert.are.equal(10, #mintid.nanoid(10))
            assert.are.equal(1000, (snowflake_parts(4194308096)))
            assert.are.equal(mintid.relative_tag(SECRET, "", "42"), mintid.relative_tag(SECRET, "", 42))
            assert.is_not_nil(mintid.ulid_from(1, ZERO10))
        end)
    end)

    describe("options are read as Lua reads a table field", function()
        it("snowflake_generator sees machine_id through __index", function()
            local opts = setmetatable({ clock = function() return T end }, { __index = { machine_id = 7 } })
            local _, mid = snowflake_parts(mintid.snowflake_generator(opts):next())
            assert.are.equal(7, mid)
        end)

        it("nanoid_generator sees size and alphabet through __index", function()
            local g = mintid.nanoid_generator(setmetatable({}, { __index = { size = 5, alphabet = "ab" } }))
            assert.is_truthy(g:next():match("^[ab][ab][ab][ab][ab]$"))
        end)

        it("relative_generator sees its secret through an __index function", function()
            local g = mintid.relative_generator(setmetatable({}, {
                __index = function(_, k) if k == "secret" then return SECRET end end,
            }))
            assert.are.equal(mintid.relative_tag(SECRET, "", "k"), g:tag("k"))
        end)

        it("an unknown raw key still raises, even beside an __index", function()
            arg_error(function()
                return mintid.snowflake_generator(setmetatable({ machineid = 3 }, { __index = { machine_id = 7 } }))
            end, 1, "unknown option 'machineid'")
        end)
    end)

    describe("parse_snowflake's range", function()
        it("a sum up to 2^53 - 1 parses on every Lua", function()
            assert.are.equal(h.int(2 ^ 53 - 1), (snowflake_parts("4194304", h.int(2 ^ 53 - 2))))
        end)

        if h.has_integers then
            it("on Lua 5.3/5.4 an epoch whose sum passes math.maxinteger is bad data, not a wrap", function()
                local ts, msg = mintid.parse_snowflake(4194304, math.maxinteger)
                h.assert_bad_data(ts, msg, "does not fit", "maxinteger epoch")
                assert.are.equal(math.maxinteger, (snowflake_parts(0, math.maxinteger)))
            end)
        else
            it("where integers are doubles a sum past 2^53 - 1 is bad data", function()
                local ts, msg = mintid.parse_snowflake("4194304", 2 ^ 53 - 1)
                h.assert_bad_data(ts, msg, "does not fit", "2^53 - 1 + 1")
                ts, msg = mintid.parse_snowflake("18446744073709551615", 2 ^ 53)
                h.assert_bad_data(ts, msg, "does not fit", "2^64 - 1 at epoch 2^53")
            end)
        end

        it("an ID with bit 63 set parses on every Lua (only the generator refuses it)", function()
            local ts, mid, seq = snowflake_parts("9223372036854775808")
            assert.are.equal(h.int(2 ^ 41), ts)
            assert.are.equal(0, mid)
            assert.are.equal(0, seq)
        end)
    end)

    describe("a Snowflake generator waits for its clock at most max_wait_ms", function()
        -- A generator at clock c whose 4096 IDs of ms T are used.
        local function exhausted(options)
            local c = h.clock_var("snowflake")
            options.clock = c.fn
            local g = mintid.snowflake_generator(options)
            c.now = T
            for i = 1, 4096 do assert(g:next(), "ID " .. i) end
            return g, c
        end

        it("max_wait_ms must be an integer 0..60000", function()
            for _, bad in ipairs({ -1, 60001, 1.5, "10", true, 2 ^ 63 }) do
                arg_error(function() return mintid.snowflake_generator { max_wait_ms = bad } end, 1, "max_wait_ms")
            end
        end)

        it("max_wait_ms 0 and 60000 take effect: the wait each allows, and no more", function()
            -- The next ID after the 4096 of ms T, the clock then reading `readings` in turn.
            local function after_exhaustion(options, readings)
                local n, now = 0, T
                options.clock = function()
                    if now then return now end
                    n = n + 1
                    return readings[math.min(n, #readings)]
                end
                local g = mintid.snowflake_generator(options)
                for i = 1, 4096 do assert(g:next(), "ID " .. i) end
                now = nil
                return g:next()
            end
            local back, same = { T - 59999, T + 1 }, { T, T + 1 }
            local ts, _, seq = snowflake_parts(after_exhaustion({ max_wait_ms = 60000 }, back))
            assert.are.equal(T + 1, ts)
            assert.are.equal(0, seq)
            local id, msg = after_exhaustion({ max_wait_ms = 59999 }, back)
            h.assert_bad_data(id, msg, "snowflake: clock moved back 59999 ms", "max_wait_ms 59999")
            id, msg = after_exhaustion({}, back)
            h.assert_bad_data(id, msg, "snowflake: clock moved back 59999 ms", "default max_wait_ms")
            assert.are.equal(T + 1, (snowflake_parts(after_exhaustion({}, same))))
            id, msg = after_exhaustion({ max_wait_ms = 0 }, same)
            h.assert_bad_data(id, msg, "snowflake: 4096 IDs used at ms " .. T, "max_wait_ms 0")
        end)

        it("a clock an hour back gives nil, 'snowflake: clock moved back ...' at once, state unchanged", function()
            local g, c = exhausted({ machine_id = 3 })
            c.now = T - 3600000
            local before = c.calls
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "snowflake: clock moved back 3600000 ms", "an hour back")
            assert.is_true(c.calls - before <= 2, "the clock was read " .. (c.calls - before) .. " times")
            c.now = T + 1
            local ts, mid, seq = snowflake_parts(g:next())
            assert.are.equal(T + 1, ts)
            assert.are.equal(3, mid)
            assert.are.equal(0, seq)
        end)

        it("within max_wait_ms it waits for the clock, as SPEC's spin", function()
            local list = { T - 3, T - 2, T, T + 1 }
            local reads = 0
            local c = h.clock_var("snowflake")
            local g = mintid.snowflake_generator { max_wait_ms = 5, clock = function()
                if c.now then return c.fn() end
                reads = reads + 1
                return list[reads]
            end }
            c.now = T
            for i = 1, 4096 do assert(g:next(), "ID " .. i) end
            c.now = nil
            local ts, _, seq = snowflake_parts(g:next())
            assert.are.equal(T + 1, ts)
            assert.are.equal(0, seq)
            assert.are.equal(4, reads)
        end)

        it("a clock that keeps falling back gives up once the wait would pass max_wait_ms", function()
            local calls = 0
            local id, msg
            -- the clock steps back one more ms at every reading: a wait of
            -- 2, 3, 4, 5 ms is allowed, 6 ms is not
            local g2 = mintid.snowflake_generator { max_wait_ms = 5, clock = function()
                calls = calls + 1
                return calls <= 4096 and T or T - (calls - 4096)
            end }
            for i = 1, 4096 do assert(g2:next(), "ID " .. i) end
            id, msg = g2:next()
            h.assert_bad_data(id, msg, "snowflake: clock moved back 5 ms", "falling clock")
            assert.are.equal(4096 + 5, calls)
        end)

        it("max_wait_ms = 0 never waits, even for the next ms", function()
            local g, c = exhausted({ max_wait_ms = 0 })
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "snowflake: ", "max_wait_ms 0")
            assert.is_truthy(msg:find("max_wait_ms 0", 1, true), msg)
            c.now = T + 1
            assert.is_not_nil(g:next())
        end)
    end)

    describe("a generator closed by its own hook", function()
        it("a relative generator closed from its random hook fails the call and stays closed", function()
            local g
            g = mintid.relative_generator { secret = SECRET, random = function(n)
                getmetatable(g).__gc(g)
                return ("\0"):rep(n)
            end }
            h.raises(function() return g:next("k") end, "attempt to use a closed mintid.RelativeGenerator")
            h.raises(function() return g:next("k") end, "attempt to use a closed mintid.RelativeGenerator")
        end)

        it("a ULID generator closed from its random hook publishes no ID", function()
            local g
            g = mintid.ulid_generator { clock = function() return T end, random = function(n)
                getmetatable(g).__gc(g)
                return ("\0"):rep(n)
            end }
            h.raises(function() return g:next() end, "attempt to use a closed mintid.ULIDGenerator")
        end)
    end)

    -- LuaJIT only: the chunks use LL/ULL literals, which other Luas cannot
    -- even load, so they are compiled with loadstring here.
    if jit then
        describe("LuaJIT int64 and uint64 cdata where an integer is accepted", function()
            local function run(chunk)
                local f = assert(loadstring("local mintid, h, SECRET, T = ...\n" .. chunk))
                return f(mintid, h, SECRET, T)
            end

            it("parse_snowflake(4194308096LL) and (2^64 - 1 as ULL)", function()
                run([[
                    local ts, mid, seq = mintid.parse_snowflake(4194308096LL)
                    assert(ts == 1000 and mid == 1 and seq == 0, tostring(ts) .. " " .. tostring(mid))
                    ts, mid, seq = mintid.parse_snowflake(18446744073709551615ULL)
                    assert(ts == 4398046511103 and mid == 1023 and seq == 4095, tostring(ts))
                    ts = mintid.parse_snowflake(4194308096LL, 10LL)
                    assert(ts == 1010, tostring(ts))
                    local none, msg = mintid.parse_snowflake(-1LL)
                    assert(none == nil and msg:find("bad character '-'", 1, true), tostring(msg))
                ]])
            end)

            it("a relative key of 42LL is the key \"42\"", function()
                run([[
                    local g = mintid.relative_generator { secret = SECRET }
                    assert(g:prefix(42LL) == g:prefix("42"))
                    assert(g:tag(42ULL) == g:tag("42"))
                    assert(mintid.relative_tag(SECRET, "", -7LL) == mintid.relative_tag(SECRET, "", "-7"))
                    assert(g:next(42LL):sub(1, 7) == g:prefix("42"))
                ]])
            end)

            it("nanoid(10LL), ulid_from(...LL), relative_from(...LL)", function()
                run([[
                    assert(#mintid.nanoid(10LL) == 10)
                    assert(#mintid.nanoid(4ULL, "ab") == 4)
                    assert(tostring(mintid.ulid_from(1469918176385LL, ("\0"):rep(10)))
                        == "01ARYZ6S410000000000000000")
                    assert(mintid.relative_from(1LL, 2LL, 3ULL) == mintid.relative_from(1, 2, 3))
                ]])
            end)

            it("options such as machine_id = 7LL, and a clock returning LL", function()
                run([[
                    local g = mintid.snowflake_generator { machine_id = 7LL, epoch = 0ULL,
                        max_wait_ms = 5LL, clock = function() return 1700000000000LL end }
                    local _, mid = mintid.parse_snowflake(g:next())
                    assert(mid == 7, tostring(mid))
                    assert(#mintid.nanoid_generator({ size = 3LL }):next() == 3)
                ]])
            end)

            it("other cdata and out-of-range ULL are refused", function()
                run([[
                    local ffi = require "ffi"
                    local function refuses(f, want)
                        local ok, err = pcall(f)
                        assert(not ok and tostring(err):find(want, 1, true), tostring(err))
                    end
                    refuses(function() return mintid.nanoid(ffi.new("double", 5)) end, "got cdata")
                    refuses(function() return mintid.nanoid(ffi.new("int[1]")) end, "got cdata")
                    refuses(function() return mintid.parse_snowflake(ffi.new("uint8_t *")) end, "got cdata")
                    refuses(function() return mintid.relative_from(9223372036854775808ULL, 0, 0) end, "got cdata")
                    refuses(function() return mintid.snowflake_generator { machine_id = 1024LL } end, "machine_id")
                ]])
            end)
        end)
    end
end)
