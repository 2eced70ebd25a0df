-- resty.mintid under LuaJIT: what only the FFI binding has. Run by
-- spec/run.sh in its resty.mintid pass only (busted --pattern=_ffispec).
local h = require "helper"
local ffi = require "ffi"
local resty = require "resty.mintid"
local mintid = require "mintid"
local abi = require "resty.mintid.cdef"

local LIB = package.searchpath("mintid", package.cpath)
local C = ffi.load(LIB)

-- Every pattern an ID of the hot paths matches.
local HOT = {
    { "ulid()", function() return resty.ulid() end, h.ULID_PATTERN },
    { "uuid7()", function() return resty.uuid7() end, h.UUID_PATTERN },
    { "uuid4()", function() return resty.uuid4() end, h.UUID_PATTERN },
    { "nanoid()", function() return resty.nanoid() end, "^[%w_-]+$" },
    { "trace_id()", function() return resty.trace_id() end, "^" .. ("%x"):rep(32) .. "$" },
    { "span_id()", function() return resty.span_id() end, "^" .. ("%x"):rep(16) .. "$" },
    { "objectid()", function() return resty.objectid() end, "^" .. ("%x"):rep(24) .. "$" },
    { "xid()", function() return resty.xid() end, "^" .. ("[0-9a-v]"):rep(19) .. "[0g]$" },
    { "traceparent()", function() return resty.traceparent() end, "^00%-" .. ("%x"):rep(32) .. "%-" .. ("%x"):rep(16) .. "%-00$" },
    { "cuid2()", function() return resty.cuid2() end, "^[a-z]" .. ("[0-9a-z]"):rep(23) .. "$" },
    { "cuid2(32)", function() return resty.cuid2(32) end, "^[a-z]" .. ("[0-9a-z]"):rep(31) .. "$" },
}

describe("resty.mintid (LuaJIT FFI)", function()
    describe("the library and its declarations", function()
        it("is found through package.cpath, as require finds mintid", function()
            assert.is_string(LIB)
            assert.is_truthy(LIB:find("mintid%.so$"), LIB)
            assert.are.equal(26, #resty.ulid())
        end)

        it("declares every struct with the size the library reports", function()
            assert.is_true(#abi.structs >= 5)
            for _, name in ipairs(abi.structs) do
                local reported = tonumber(C.mintid_abi_sizeof(name))
                assert.is_true(reported > 0, name .. ": the library does not know this struct")
                assert.are.equal(reported, ffi.sizeof(name), name)
            end
            assert.are.equal(0, tonumber(C.mintid_abi_sizeof("no_such_struct")))
            assert.are.equal(0, tonumber(C.mintid_abi_sizeof(nil)))
        end)

        it("exports exactly luaopen_mintid and the declared functions (nm -D)", function()
            local nm = io.popen("nm -D --defined-only '" .. LIB .. "' 2>&1")
            local exported, n = {}, 0
            for line in nm:lines() do
                local name = line:match("^%x+%s+[TDBRW]%s+([%w_]+)$")
                if name then exported[name] = true; n = n + 1 end
            end
            nm:close()
            local want = { luaopen_mintid = true }
            for _, f in ipairs(abi.functions) do want[f] = true end
            for name in pairs(exported) do
                assert.is_true(want[name] ~= nil, "exported but not declared (a hidden name leaks?): " .. name)
            end
            for name in pairs(want) do
                assert.is_true(exported[name] ~= nil, "declared but not exported: " .. name)
            end
        end)

        it("loads a second time without declaring the types again", function()
            local saved = package.loaded["resty.mintid"]
            package.loaded["resty.mintid"] = nil
            local again = require "resty.mintid"
            package.loaded["resty.mintid"] = saved
            assert.are_not.equal(saved, again)
            assert.is_truthy(again.ulid():match(h.ULID_PATTERN))
        end)
    end)

    describe("one library for both bindings", function()
        it("mintid and resty.mintid share the default generators: interleaved IDs strictly increase", function()
            for _, kind in ipairs({ "ulid", "uuid7" }) do
                local turn = 0
                h.assert_strictly_increasing(function()
                    turn = turn + 1
                    return (turn % 2 == 0 and mintid or resty)[kind]()
                end, 20000, kind == "ulid" and h.ULID_PATTERN or h.UUID_PATTERN, kind .. " (both bindings)")
            end
        end)

        it("objectid() and xid(): one default generator each, the counter + 1 across the bindings", function()
            for _, kind in ipairs({ "objectid", "xid" }) do
                local parse = mintid["parse_" .. kind]
                assert.are_not.equal(mintid[kind], resty[kind], kind)
                local prev = parse(resty[kind]())
                for i = 1, 200 do
                    local v = parse((i % 2 == 0 and resty or mintid)[kind]())
                    assert.are.equal((prev:counter() + 1) % 16777216, v:counter(), kind)
                    assert.are.equal(prev:bytes():sub(5, 9), v:bytes():sub(5, 9), kind)
                    prev = v
                end
            end
        end)

        it("objectid and xid generators: FFI next on plain ones, the C method on hooked ones", function()
            local plain_o, plain_x = resty.objectid_generator(), resty.xid_generator { machine = "abc", pid = 9 }
            assert.are.equal(mintid._ffi.meta.objectid_generator, getmetatable(plain_o))
            assert.are.equal(mintid._ffi.meta.xid_generator, getmetatable(plain_x))
            local o1, o2 = mintid.parse_objectid(plain_o:next()), mintid.parse_objectid(plain_o:next())
            assert.are.equal((o1:counter() + 1) % 16777216, o2:counter())
            local x = mintid.parse_xid(plain_x:next())
            assert.are.equal("abc", x:machine())
            assert.are.equal(9, x:pid())
            local zeros = function(n) return ("\0"):rep(n) end
            local hooked = resty.objectid_generator { clock = function() return 1700000000000 end, random = zeros }
            local c_made = mintid.objectid_generator { clock = function() return 1700000000000 end, random = zeros }
            assert.are.equal(c_made:next(), hooked:next())
            assert.are.equal("6553f1000000000000000001", hooked:next())
        end)

        it("hot paths are FFI calls; generators the C module's objects with its FFI metatable", function()
            assert.are_not.equal(mintid.ulid, resty.ulid)
            for _, name in ipairs({ "trace_id", "span_id", "traceparent", "parse_traceparent" }) do
                assert.are_not.equal(mintid[name], resty[name], name)
            end
            assert.is_nil(resty._ffi)
            local hooked = resty.ulid_generator { clock = function() return 1 end }
            local plain = resty.ulid_generator()
            assert.are.equal(mintid._ffi.meta.ulid_generator, getmetatable(plain))
            assert.are.equal(getmetatable(plain), getmetatable(hooked))
            assert.are_not.equal(getmetatable(mintid.ulid_generator()), getmetatable(plain))
            -- a flag (here: a clock) sends the call to the C method, which runs the clock
            assert.are.equal("0000000001", hooked:next():sub(1, 10))
            assert.are_not.equal("0000000001", plain:next():sub(1, 10))
        end)
    end)

    describe("errors", function()
        -- Each case runs on both modules from the same line, so the whole
        -- message (position, function name, argument number) must agree.
        local SECRET = "0123456789abcdef"
        local function objects(m)
            return {
                m = m,
                r = m.relative_generator { secret = SECRET },
                u = m.ulid_generator(),
                s = m.snowflake_generator(),
                n = m.nanoid_generator(),
                v4 = m.uuid4_generator(),
                sq = m.sqids(),
            }
        end
        local cases = {
            function(o) local x = o.r:next(4.5) return x end,
            function(o) local x = o.r.next(o.r) return x end,
            function(o) local x = o.r:next({}) return x end,
            function(o) local x = o.r:prefix() return x end,
            function(o) local x = o.r.tag() return x end,
            function(o) local x = o.r:next_value(nil) return x end,
            function(o) local x = o.r.next(o.u, "k") return x end,
            function(o) local x = o.r:next(ffi.new("uint64_t", 2 ^ 63)) return x end,
            function(o) local x = o.r:tag(ffi.new("int32_t", 5)) return x end,
            function(o) local x = o.u.next(5) return x end,
            function(o) local x = o.u.next() return x end,
            function(o) local x = o.u.next_value(o.r) return x end,
            function(o) local x = o.s.next(nil) return x end,
            function(o) local x = o.n.next(o.s) return x end,
            function(o) local x = o.v4.next_value() return x end,
            function(o) local x = o.m.nanoid(0) return x end,
            function(o) local x = o.m.nanoid(1.5) return x end,
            function(o) local x = o.m.nanoid(false, "ab") return x end,
            function(o) local x = o.m.nanoid(5, "aa") return x end,
            function(o) local x = o.m.parse_ulid(nil) return x end,
            function(o) local x = o.m.parse_uuid({}) return x end,
            function(o) local x = o.m.ulid_to_uuid(true) return x end,
            function(o) local x = o.m.parse_snowflake("1", -5) return x end,
            function(o) local x = o.m.parse_snowflake({}) return x end,
            function(o) local x = o.m.parse_snowflake("1", "nope") return x end,
            function(o) local x = o.m.parse_snowflake("1", { time_bits = 0, machine_bits = 1, seq_bits = 1 }) return x end,
            function(o) local x = o.m.snowflake_generator { layout = "sonyflake", machine_id = 65536 } return x end,
            function(o) local x = o.m.snowflake_layout("nope") return x end,
            function(o) local x = o.m.relative_range(5) return x end,
            function(o) local x = o.m.relative_generator { secret = "short" } return x end,
            function(o) local x = o.m.relative_generator { secret = SECRET, salt = 5 } return x end,
            function(o) local x = o.m.snowflake_generator { machine_id = 5000 } return x end,
            function(o) local x = o.m.snowflake_generator { machine_id = false } return x end,
            function(o) local x = o.m.nanoid_generator { size = 0 } return x end,
            function(o) local x = o.m.ulid_generator { secret = SECRET } return x end,
            function(o) local x = o.m.uuid7_generator(5) return x end,
            function(o) local x = o.m.parse_ulid() return x end,
            function(o) local x = o.m.parse_snowflake() return x end,
            function(o) local x = o.m.relative_range() return x end,
            function(o) local x = o.m.ulid_to_uuid() return x end,
            function(o) local x = o.m.nanoid(nil, 5) return x end,
            function(o) local x = o.m.traceparent(5) return x end,
            function(o) local x = o.m.traceparent(nil, {}) return x end,
            function(o) local x = o.m.traceparent(nil, nil, 256) return x end,
            function(o) local x = o.m.traceparent(nil, nil, -1) return x end,
            function(o) local x = o.m.traceparent(nil, nil, 1.5) return x end,
            function(o) local x = o.m.traceparent(nil, nil, "1") return x end,
            function(o) local x = o.m.traceparent(nil, nil, 2 ^ 53) return x end,
            function(o) local x = o.m.traceparent(nil, nil, ffi.new("int64_t", 256)) return x end,
            function(o) local x = o.m.parse_traceparent() return x end,
            function(o) local x = o.m.parse_traceparent(55) return x end,
            function(o) local x = o.m.short_uuid(5) return x end,
            function(o) local x = o.m.short_uuid(o.u) return x end,
            function(o) local x = o.m.short_uuid(nil, "ab") return x end,
            function(o) local x = o.m.short_uuid("x", "aa") return x end,
            function(o) local x = o.m.short_uuid(o.m.UUID_NIL, "") return x end,
            function(o) local x = o.m.short_uuid(o.m.UUID_NIL, 58) return x end,
            function(o) local x = o.m.parse_short_uuid() return x end,
            function(o) local x = o.m.parse_short_uuid("1", "a") return x end,
            function(o) local x = o.m.parse_short_uuid("1", {}) return x end,
            function(o) local x = o.m.cuid2(1) return x end,
            function(o) local x = o.m.cuid2(33) return x end,
            function(o) local x = o.m.cuid2(2.5) return x end,
            function(o) local x = o.m.cuid2("24") return x end,
            function(o) local x = o.m.cuid2({}) return x end,
            function(o) local x = o.m.is_cuid2("ab", "x") return x end,
            function(o) local x = o.m.is_cuid2(5) return x end,
            function(o) local x = o.m.cuid2_generator { length = 1 } return x end,
            function(o) local x = o.m.cuid2_generator { fingerprint = "" } return x end,
            function(o) local x = o.m.cuid2_generator().next(o.u) return x end,
            function(o) local x = o.sq:encode({ -1 }) return x end,
            function(o) local x = o.sq:encode({ 1, 1.5 }) return x end,
            function(o) local x = o.sq:encode({ 2 ^ 53 }) return x end,
            function(o) local x = o.sq:encode({ ffi.new("int64_t", -1) }) return x end,
            function(o) local x = o.sq:encode(5) return x end,
            function(o) local x = o.sq.encode({}, { 1 }) return x end,
            function(o) local x = o.sq.encode(o.u, { 1 }) return x end,
            function(o) local x = o.sq:decode(5) return x end,
            function(o) local x = o.m.sqids { alphabet = "ab" } return x end,
            function(o) local x = o.m.sqids { min_length = 256 } return x end,
            function(o) local x = o.m.sqids { nope = 1 } return x end,
            function(o)
                local x = o.m.sqids { alphabet = "abc", min_length = 3, blocklist = { "cab", "abc", "bca" } }:encode({ 0 })
                return x
            end,
        }

        it("are the C module's, word for word", function()
            local c, f = objects(mintid), objects(resty)
            getmetatable(c.n).__gc(c.n)
            getmetatable(f.n).__gc(f.n)
            for i, case in ipairs(cases) do
                local ok_c, msg_c = pcall(case, c)
                local _, msg_f = pcall(case, f)
                assert.is_false(ok_c, "case " .. i .. " raised nothing")
                assert.are.equal(msg_c, msg_f, "case " .. i)
            end
            -- a closed generator, from the same line
            local closed = function(o) local x = o.n:next() return x end
            local ok_c, msg_c = pcall(closed, c)
            local ok_f, msg_f = pcall(closed, f)
            assert.is_false(ok_c or ok_f)
            assert.are.equal(msg_c, msg_f)
        end)

        it("Sqids: the C module's text and numbers, through the FFI and past it", function()
            math.randomseed(39)
            local opts = { {}, { alphabet = "0123456789abcdef", min_length = 40 }, { blocklist = {} },
                { alphabet = "abc", min_length = 255, blocklist = {} }, { blocklist = { "86u", "aho1e" } } }
            for _, o in ipairs(opts) do
                local c, f = mintid.sqids(o), resty.sqids(o)
                assert.are_not.equal(getmetatable(c), getmetatable(f))
                for _ = 1, 200 do
                    local numbers = {}
                    for i = 1, math.random(1, 20) do -- past the FFI's 16 numbers too
                        numbers[i] = math.random(3) == 1 and math.random(0, 100) or math.floor(math.random() * 2 ^ 53)
                    end
                    local id = c:encode(numbers)
                    assert.are.equal(id, f:encode(numbers))
                    assert.are.equal(id, c.encode(f, numbers)) -- either method takes either object
                    assert.are.same(c:decode(id), f:decode(id))
                end
                assert.are.equal(c:encode({ ffi.new("int64_t", 42) }), f:encode({ ffi.new("uint64_t", 42) }))
            end
        end)

        it("integer keys, int64 cdata included, give the C module's tags", function()
            local c, f = objects(mintid), objects(resty)
            local keys = { 42, -7, 0, 2 ^ 53, ffi.new("int64_t", -5), ffi.new("uint64_t", 123),
                (ffi.new("int64_t", 2 ^ 62) - 1) * 2 + 1 } -- 2^63 - 1
            for _, key in ipairs(keys) do
                assert.are.equal(c.r:tag(key), f.r:tag(key), tostring(key))
                assert.are.equal(c.r:prefix(key), f.r:prefix(key), tostring(key))
                assert.are.equal(c.r:next(key):sub(1, 7), f.r:next(key):sub(1, 7), tostring(key))
            end
        end)

        it("bad data: the same nil, message", function()
            for _, text in ipairs({ "", "x", ("Z"):rep(26), ("U"):rep(26), "8ZZZZZZZZZZZZZZZZZZZZZZZZZ" }) do
                for _, name in ipairs({ "parse_ulid", "parse_uuid", "parse_relative", "ulid_to_uuid",
                    "uuid_to_ulid", "relative_range", "parse_snowflake", "parse_traceparent", "traceparent" }) do
                    local v1, m1 = mintid[name](text)
                    local v2, m2 = resty[name](text)
                    h.assert_bad_data(v1, m1, nil, "mintid." .. name .. " " .. text)
                    h.assert_bad_data(v2, m2, nil, "resty.mintid." .. name .. " " .. text)
                    assert.are.equal(m1, m2, name .. " " .. text)
                end
            end
        end)
    end)

    describe("short UUIDs", function()
        it("give the C module's texts, values and bad data in every alphabet, cached or not", function()
            local alphabets = { false, mintid.SHORT_UUID_COOKIE, "01", mintid.SHORT_UUID_COOKIE, h.ALL_BYTES, "01" }
            local texts = { "", "x", ("1"):rep(22), "xBuEXKpA6iqZQK5Kf2TnkW", ("0"):rep(128), ("1"):rep(128) }
            for _, a in ipairs(alphabets) do
                local alphabet = a or nil
                for _ = 1, 20 do
                    local u = mintid.uuid4()
                    local text = mintid.short_uuid(u, alphabet)
                    assert.are.equal(text, resty.short_uuid(u, alphabet))
                    assert.are.equal(text, resty.short_uuid(mintid.parse_uuid(u), alphabet))
                    assert.are.equal(text, resty.short_uuid(resty.parse_uuid(u), alphabet))
                    assert.are.equal(mintid.parse_short_uuid(text, alphabet), resty.parse_short_uuid(text, alphabet))
                end
                for _, text in ipairs(texts) do
                    assert.are.same({ mintid.parse_short_uuid(text, alphabet) }, { resty.parse_short_uuid(text, alphabet) })
                end
                assert.are.same({ mintid.short_uuid("nope", alphabet) }, { resty.short_uuid("nope", alphabet) })
            end
        end)
    end)

    describe("parse_snowflake with a preset layout", function()
        it("gives the C module's parts and bad data, for every preset", function()
            local ids = { "0", "1", "255", "65535", "4194304", "414234261491552820", "1541815603606036480",
                          "9223372036854775807", "9223372036854775808", "18446744073709551615", "x", "" }
            for _, layout in ipairs { "mintid", "twitter", "discord", "instagram", "sonyflake", "mintid" } do
                for _, id in ipairs(ids) do
                    assert.are.same({ mintid.parse_snowflake(id, layout) }, { resty.parse_snowflake(id, layout) },
                        id .. " " .. layout)
                end
            end
        end)
    end)

    describe("shared output buffers", function()
        it("serve interleaved coroutines: every ID distinct and well-formed", function()
            local gens = {
                { "ulid_generator", resty.ulid_generator(), h.ULID_PATTERN },
                { "relative_generator", resty.relative_generator { secret = "0123456789abcdef" }, h.RELATIVE_PATTERN },
                { "snowflake_generator", resty.snowflake_generator { machine_id = 3 }, "^%d+$" },
            }
            local seen, count = {}, 0
            local function add(id, pattern, label)
                assert(type(id) == "string" and id:match(pattern), label .. ": " .. tostring(id))
                assert(not seen[id], label .. ": repeated " .. id)
                seen[id] = true
                count = count + 1
            end
            local cos = {}
            for c = 1, 8 do
                cos[c] = coroutine.wrap(function()
                    for i = 1, 500 do
                        local hot = HOT[(c + i) % #HOT + 1]
                        local id = hot[2]()
                        coroutine.yield()
                        add(id, hot[3], hot[1])
                        local g = gens[(c + i) % #gens + 1]
                        local gid = g[2]:next("key-" .. c)
                        coroutine.yield()
                        add(gid, g[3], g[1])
                    end
                    return "done"
                end)
            end
            local running = #cos
            while running > 0 do
                running = 0
                for c = 1, #cos do
                    if cos[c] and cos[c]() == "done" then cos[c] = false end
                    if cos[c] then running = running + 1 end
                end
            end
            assert.are.equal(8 * 500 * 2, count)
        end)
    end)

    describe("generators in memory the GC owns", function()
        it("a closed relative generator is refused, its own state wiped", function()
            local g = resty.relative_generator { secret = "0123456789abcdef" }
            assert.is_truthy(g:next("k"))
            local st = ffi.cast("uint8_t *", g) + mintid._ffi.state_offset
            local size = ffi.sizeof("mintid_relative_gen")
            local nonzero = 0
            for i = 0, size - 1 do
                if st[i] ~= 0 then nonzero = nonzero + 1 end
            end
            assert.is_true(nonzero > 0, "the key schedule is in the generator's own bytes")
            getmetatable(g).__gc(g)
            h.raises(function() return g:next("k") end, "attempt to use a closed mintid.RelativeGenerator")
            h.raises(function() return g:prefix("k") end, "attempt to use a closed mintid.RelativeGenerator")
            for i = 0, size - 1 do
                assert(st[i] == 0, "byte " .. i .. " of the closed generator's state")
            end
        end)

        it("1M calls on the hot paths leave the Lua heap where it was", function()
            local g = resty.ulid_generator()
            local r = resty.relative_generator { secret = "0123456789abcdef" }
            local s = resty.snowflake_generator()
            local sample = resty.ulid()
            local sample_uuid = resty.uuid4()
            local sample_short = resty.short_uuid(sample_uuid)
            local calls = {
                resty.ulid, resty.uuid7, resty.uuid4, resty.nanoid, resty.trace_id, resty.traceparent,
                function() return g:next() end,
                function() return r:next("customer-42") end,
                function() return s:next() end,
                function() return resty.parse_ulid(sample) end,
                function() return resty.parse_snowflake("414234261491552820", "sonyflake") end,
                function() return resty.short_uuid(sample_uuid) end,
                function() return resty.short_uuid(sample_uuid, resty.SHORT_UUID_COOKIE) end,
                function() return resty.parse_short_uuid(sample_short) end,
            }
            local function run(n)
                for i = 1, n do
                    local id = calls[i % #calls + 1]()
                    if id == nil then error("call " .. i .. " failed") end
                end
            end
            -- LuaJIT's string table grows with the strings alive at once
            -- and shrinks by half at most per collection: collected until
            -- the heap stops shrinking, it is back where it was, while
            -- anything the calls kept would stay.
            local function settled_heap()
                local count = math.huge
                for _ = 1, 20 do
                    collectgarbage()
                    local now = collectgarbage("count")
                    if now >= count then break end
                    count = now
                end
                return count
            end
            -- value pools and traces settle, and the string table takes
            -- the size these calls give it (it doubles at most once, by
            -- 2 MB, the first time: seen as a failure in a whole-suite run)
            run(1000000)
            local before = settled_heap()
            run(1000000)
            local after = settled_heap()
            assert.is_true(after - before < 256, string.format("heap grew by %.0f KB", after - before))
        end)
    end)
end)
