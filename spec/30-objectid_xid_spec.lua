-- MongoDB ObjectId and XID (SPEC.md "MongoDB ObjectId", "XID"): 12 bytes of
-- 4-byte seconds, 5 bytes of process identity and a 24-bit counter from a
-- random start; 24 hex digits, or 20 symbols of base32hex.
local h = require "helper"
local mintid = require(h.module_name)

local OBJECTID_PATTERN = "^" .. ("[0-9a-f]"):rep(24) .. "$"
local XID_PATTERN = "^" .. ("[0-9a-v]"):rep(19) .. "[0g]$"
local MAX_S = 4294967295
local S0 = 1700000000000

local function counter_of(b) return b:byte(10) * 65536 + b:byte(11) * 256 + b:byte(12) end
local function constant(ms) return function() return ms end end
local function zeros(n) return ("\0"):rep(n) end

-- a xor b for 0 <= a, b < 2^16, with no bit library (Lua 5.1).
local function xor16(a, b)
    local r, bit = 0, 1
    for _ = 1, 16 do
        if a % 2 ~= b % 2 then r = r + bit end
        a, b, bit = math.floor(a / 2), math.floor(b / 2), bit * 2
    end
    return r
end

-- This process's id, from /proc (the fork tests run where testfork does).
local function own_pid()
    local f = assert(io.open("/proc/self/stat", "r"))
    local pid = tonumber(f:read("*l"):match("^(%d+)"))
    f:close()
    return pid
end

describe("MongoDB ObjectId", function()
    describe("vectors", function()
        it("objectid.txt: parse_objectid (either case), bytes, time, counter and objectid_from_bytes", function()
            h.each_vector("objectid.txt", { "text", "bytes_hex", "unix_s", "counter" }, function(r, w)
                local v = mintid.parse_objectid(r.text)
                assert(v ~= nil, w .. ": parse_objectid failed")
                assert.are.equal(r.text, tostring(v), w)
                assert.are.equal(r.bytes_hex, h.tohex(v:bytes()), w)
                assert.are.equal(h.num(r.unix_s) * 1000, v:time(), w)
                assert.are.equal(h.num(r.counter), v:counter(), w)
                assert.are.equal(v, mintid.parse_objectid(r.text:upper()), w .. " (uppercase)")
                assert.are.equal(r.text, tostring(mintid.parse_objectid(r.text:upper())), w)
                assert.are.equal(v, mintid.objectid_from_bytes(h.fromhex(r.bytes_hex)), w)
                assert.are.equal("objectid", mintid.kind_of(r.text), w)
            end)
        end)

        it("objectid_invalid.txt: parse_objectid returns nil and a one-line message with the reason", function()
            h.each_invalid("objectid_invalid.txt", { parse_objectid = mintid.parse_objectid })
        end)

        it("objectid_sequence.txt: every scenario replayed on a new generator with injected clock and random", function()
            h.replay_scenarios {
                file = "objectid_sequence.txt", columns = { "scenario", "now_ms", "random_hex", "expect" }, draw = 8,
                new = mintid.objectid_generator,
            }
        end)
    end)

    describe("edge cases", function()
        it("a clock set back keeps the generator's last second; the counter goes on", function()
            local now = S0 + 5000
            local g = mintid.objectid_generator { clock = function() return now end, random = zeros }
            assert.are.equal("6553f1050000000000000000", g:next())
            now = S0
            assert.are.equal("6553f1050000000000000001", g:next())
            now = S0 + 6000
            assert.are.equal("6553f1060000000000000002", g:next())
        end)

        it("the counter wraps from 0xffffff to 0 and the ObjectIds go on", function()
            local g = mintid.objectid_generator { clock = constant(S0),
                random = function(n) return ("\1"):rep(n - 3) .. "\255\255\255" end }
            assert.are.equal("6553f1000101010101ffffff", g:next())
            local v = g:next_value()
            assert.are.equal("6553f1000101010101000000", tostring(v))
            assert.are.equal(0, v:counter())
        end)

        it("the seconds 0 and 2^32 - 1 are the range; past it nil, message", function()
            local v = mintid.objectid_from_bytes(("\255"):rep(12))
            assert.are.equal(MAX_S * 1000, v:time())
            assert.are.equal("2106-02-07T06:28:15.000Z", v:iso())
            assert.are.equal(16777215, v:counter())
            local g = mintid.objectid_generator { clock = constant((MAX_S + 1) * 1000), random = zeros }
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "ObjectId timestamp 4294967296 out of range 0..4294967295")
            g = mintid.objectid_generator { clock = constant(-1), random = zeros }
            id, msg = g:next()
            h.assert_bad_data(id, msg, "ObjectId timestamp -1 out of range 0..4294967295")
            g = mintid.objectid_generator { clock = constant(0), random = zeros }
            assert.are.equal(zeros(24):gsub("%z", "0"), g:next())
        end)

        it("values compare by their bytes; another kind compares unequal and cannot be ordered", function()
            local a, b = mintid.parse_objectid("507f1f77bcf86cd799439011"), mintid.parse_objectid("ffffffffffffffffffffffff")
            assert.is_true(a < b)
            assert.is_true(a <= a)
            assert.is_false(b < a)
            assert.are.equal(a, mintid.parse_objectid("507F1F77BCF86CD799439011"))
            local x = mintid.xid_from_bytes(a:bytes())
            assert.are_not.equal(a, x)
            h.raises(function() return a < x end, h.compare_error("mintid.ObjectId", x))
        end)

        it("kind_of tells a 24-char text is an ObjectId, whatever its characters", function()
            assert.are.equal("objectid", mintid.kind_of(mintid.objectid()))
            assert.are.equal("objectid", mintid.kind_of(("9"):rep(24)))
            assert.are.equal("objectid", mintid.kind_of(("z"):rep(24)))
        end)
    end)

    describe("bad input", function()
        it("bad data returns nil, message", function()
            h.assert_bad_data(mintid.objectid_from_bytes(zeros(11)), select(2, mintid.objectid_from_bytes(zeros(11))),
                "invalid ObjectId bytes: length 11, want 12")
            h.assert_bad_data(mintid.objectid_from_bytes(zeros(13)), select(2, mintid.objectid_from_bytes(zeros(13))),
                "invalid ObjectId bytes: length 13, want 12")
        end)

        it("bad arguments raise naming the argument", function()
            h.raises(function() return mintid.parse_objectid(5) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.objectid_from_bytes(12) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.objectid_generator { machine = "abc" } end, "unknown option 'machine'")
            h.raises(function() return mintid.objectid_generator { clock = 5 } end, "clock must be a function")
            local g = mintid.objectid_generator { random = function() return "short" end }
            h.raises(function() return g:next() end, "random")
        end)
    end)

    describe("properties", function()
        it("a generator's ObjectIds strictly increase while its counter does not wrap", function()
            local g = mintid.objectid_generator { random = zeros }
            h.assert_strictly_increasing(function() return g:next() end, 20000, OBJECTID_PATTERN, "objectid_generator")
            local stopped = mintid.objectid_generator { clock = constant(S0), random = zeros }
            h.assert_strictly_increasing(function() return stopped:next() end, 5000, OBJECTID_PATTERN,
                "a stopped clock")
        end)

        it("with no clock option, objectid() and a generator's IDs hold the OS clock's second", function()
            local g = mintid.objectid_generator()
            local before = os.time()
            local ids = { mintid.objectid(), g:next() }
            local after = os.time()
            for _, text in ipairs(ids) do
                -- the coarse clock they read may be a tick behind os.time()
                local ms = mintid.parse_objectid(text):time()
                assert(ms >= (before - 1) * 1000 and ms <= after * 1000, "not this second: " .. text)
            end
        end)

        it("objectid(): one process's 5 random bytes, the counter + 1 per ID, no repeat", function()
            local first = mintid.parse_objectid(mintid.objectid()):bytes()
            local seen, prev = {}, first
            for _ = 1, 20000 do
                local text = mintid.objectid()
                assert(not seen[text], "repeat: " .. text)
                seen[text] = true
                local b = mintid.parse_objectid(text):bytes()
                assert(b:sub(5, 9) == first:sub(5, 9), "the random bytes changed: " .. text)
                assert(counter_of(b) == (counter_of(prev) + 1) % 16777216, "counter not + 1: " .. text)
                prev = b
            end
        end)

        it("a forked child draws new random bytes and counter start, for objectid() and a generator", function()
            local g = mintid.objectid_generator { clock = constant(S0) }
            local parent_g = g:next()
            local parent = mintid.objectid()
            local child_g, child = h.in_child(function()
                return g:next() .. " " .. mintid.objectid()
            end):match("^(%S+) (%S+)$")
            assert.are_not.equal(parent:sub(9, 18), child:sub(9, 18))
            assert.are_not.equal(parent_g:sub(9, 18), child_g:sub(9, 18))
            -- The parent goes on with its own bytes and counter.
            local after = mintid.objectid()
            assert.are.equal(parent:sub(9, 18), after:sub(9, 18))
            assert.are_not.equal(child, after)
            assert.are_not.equal(child_g, g:next())
        end)
    end)
end)

describe("XID", function()
    describe("vectors", function()
        it("xid.txt: parse_xid, bytes, time, machine, pid, counter and xid_from_bytes", function()
            h.each_vector("xid.txt", { "text", "bytes_hex", "unix_s", "machine_hex", "pid", "counter" }, function(r, w)
                local v = mintid.parse_xid(r.text)
                assert(v ~= nil, w .. ": parse_xid failed")
                assert.are.equal(r.text, tostring(v), w)
                assert.are.equal(r.bytes_hex, h.tohex(v:bytes()), w)
                assert.are.equal(h.num(r.unix_s) * 1000, v:time(), w)
                assert.are.equal(r.machine_hex, h.tohex(v:machine()), w)
                assert.are.equal(h.num(r.pid), v:pid(), w)
                assert.are.equal(h.num(r.counter), v:counter(), w)
                assert.are.equal(v, mintid.xid_from_bytes(h.fromhex(r.bytes_hex)), w)
                if not r.text:find("^%d+$") then assert.are.equal("xid", mintid.kind_of(r.text), w) end
            end)
        end)

        it("xid_invalid.txt: parse_xid returns nil and a one-line message with the reason", function()
            h.each_invalid("xid_invalid.txt", { parse_xid = mintid.parse_xid })
        end)

        it("xid_sequence.txt: every scenario replayed with machine 'mid' and pid 0x1234", function()
            h.replay_scenarios {
                file = "xid_sequence.txt", columns = { "scenario", "now_ms", "random_hex", "expect" }, draw = 3,
                new = mintid.xid_generator, options = function() return { machine = "mid", pid = 0x1234 } end,
            }
        end)
    end)

    describe("edge cases", function()
        it("rs/xid's example reads back field by field", function()
            local v = mintid.parse_xid("9m4e2mr0ui3e8a215n4g")
            assert.are.equal(1300816219000, v:time())
            assert.are.equal("\96\244\134", v:machine())
            assert.are.equal(0xe428, v:pid())
            assert.are.equal(4271561, v:counter())
            assert.are.equal("2011-03-22T17:50:19.000Z", v:iso())
        end)

        it("a clock set back keeps the last second; the counter wraps to 0", function()
            local now = S0 + 5000
            local g = mintid.xid_generator { machine = "\0\0\0", pid = 0, clock = function() return now end,
                random = function(n) return ("\255"):rep(n) end }
            assert.are.equal("cl9v21800000007vvvvg", g:next())
            now = S0
            assert.are.equal("cl9v2180000000000000", g:next())
        end)

        it("kind_of: a 20-char text is an XID, unless it is all digits (the longest Snowflakes)", function()
            assert.are.equal("xid", mintid.kind_of(mintid.xid()))
            assert.are.equal("xid", mintid.kind_of("9m4e2mr0ui3e8a215n4g"))
            assert.are.equal("snowflake", mintid.kind_of("12345678901234567890"))
            assert.are.equal("xid", mintid.kind_of("1234567890123456789x"))
        end)

        it("values compare by their bytes, which is their text order", function()
            local a, b = mintid.parse_xid("00000000000000000000"), mintid.parse_xid("9m4e2mr0ui3e8a215n4g")
            assert.is_true(a < b)
            assert.is_true(b <= b)
            assert.are.equal(b, mintid.parse_xid("9m4e2mr0ui3e8a215n4g"))
            local o = mintid.objectid_from_bytes(a:bytes())
            h.raises(function() return a < o end, h.compare_error("mintid.XID", o))
        end)
    end)

    describe("bad input", function()
        it("bad data returns nil, message", function()
            h.assert_bad_data(mintid.xid_from_bytes(zeros(11)), select(2, mintid.xid_from_bytes(zeros(11))),
                "invalid XID bytes: length 11, want 12")
            local g = mintid.xid_generator { machine = "abc", pid = 1, clock = constant(-1000), random = zeros }
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "XID timestamp -1 out of range 0..4294967295")
        end)

        it("bad arguments and options raise naming them", function()
            h.raises(function() return mintid.parse_xid(5) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.xid_from_bytes(12) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.xid_generator { machine = "ab" } end,
                "bad argument #1", "machine must be a string of 3 bytes, got 2 bytes")
            h.raises(function() return mintid.xid_generator { machine = 123 } end, "machine must be a string, got number")
            h.raises(function() return mintid.xid_generator { pid = 65536 } end, "pid must be 0..65535, got 65536")
            h.raises(function() return mintid.xid_generator { pid = -1 } end, "pid must be 0..65535, got -1")
            h.raises(function() return mintid.xid_generator { pid = 1.5 } end, "pid must be an integer")
            h.raises(function() return mintid.xid_generator { size = 1 } end, "unknown option 'size'")
        end)
    end)

    describe("properties", function()
        it("a generator's XIDs strictly increase, as bytes and as text, while its counter does not wrap", function()
            -- an identity of its own: its own counter, from the start zeros gives
            local g = mintid.xid_generator { machine = "abc", pid = 1, random = zeros }
            h.assert_strictly_increasing(function() return g:next() end, 20000, XID_PATTERN, "xid_generator")
        end)

        it("with no clock option, xid() and generators' IDs hold the OS clock's second", function()
            local g, own = mintid.xid_generator(), mintid.xid_generator { machine = "abc", pid = 7 }
            local before = os.time()
            local ids = { mintid.xid(), g:next(), own:next() }
            local after = os.time()
            for _, text in ipairs(ids) do
                -- the coarse clock they read may be a tick behind os.time()
                local ms = mintid.parse_xid(text):time()
                assert(ms >= (before - 1) * 1000 and ms <= after * 1000, "not this second: " .. text)
            end
        end)

        it("xid(): this host's machine id and this process's pid, the counter + 1 per ID", function()
            local first = mintid.parse_xid(mintid.xid())
            local prev = first
            for _ = 1, 5000 do
                local v = mintid.parse_xid(mintid.xid())
                assert(v:machine() == first:machine() and v:pid() == first:pid(), "identity changed: " .. tostring(v))
                assert(v:counter() == (prev:counter() + 1) % 16777216, "counter not + 1: " .. tostring(v))
                prev = v
            end
            local g = mintid.xid_generator()
            local v = g:next_value()
            assert.are.equal(first:machine(), v:machine())
            assert.are.equal(first:pid(), v:pid())
        end)

        it("generators of the process's identity take xid()'s counter: interleaved, + 1 each, no ID twice", function()
            -- apart, their counters would meet and give one ID twice
            local g1, g2 = mintid.xid_generator(), mintid.xid_generator { clock = constant(S0) }
            local prev = mintid.parse_xid(mintid.xid())
            local seen = {}
            for i = 1, 3000 do
                local text = i % 3 == 0 and mintid.xid() or i % 3 == 1 and g1:next() or g2:next()
                local v = mintid.parse_xid(text)
                assert(v:counter() == (prev:counter() + 1) % 16777216, "counter not + 1 at " .. i .. ": " .. text)
                assert(not seen[text], "an XID twice: " .. text)
                seen[text], prev = true, v
            end
            -- an identity given is the caller's: its own counter
            local own = mintid.xid_generator { machine = prev:machine(), pid = prev:pid(), random = zeros }
            assert.are.equal(0, own:next_value():counter())
        end)

        it("the machine id is SHA-256 of the platform's id as rs/xid reads it (Linux: /etc/machine-id)", function()
            -- An independent reading: Python's hashlib over the same file, or the host name.
            local p = assert(io.popen("python3 -c 'import hashlib,os\n"
                .. "def rd(p):\n try:\n  return open(p,\"rb\").read()\n except OSError:\n  return b\"\"\n"
                .. "b = rd(\"/etc/machine-id\") or rd(\"/sys/class/dmi/id/product_uuid\") or os.uname().nodename.encode()\n"
                .. "print(hashlib.sha256(b).hexdigest()[:6])'"))
            local want = p:read("*l")
            p:close()
            assert.are.equal(want, h.tohex(mintid.parse_xid(mintid.xid()):machine()))
        end)

        it("a forked child uses its own pid and a new counter start; the machine id stays", function()
            local g = mintid.xid_generator { clock = constant(S0) }
            local parent_v = mintid.parse_xid(mintid.xid())
            local parent_g = mintid.parse_xid(g:next())
            local out = h.in_child(function()
                return own_pid() .. " " .. mintid.xid() .. " " .. g:next()
            end)
            local child_pid, child, child_g = out:match("^(%d+) (%S+) (%S+)$")
            local cv, cg = mintid.parse_xid(child), mintid.parse_xid(child_g)
            -- The pid field is the OS pid xor-ed with a checksum both processes share.
            local want = xor16(parent_v:pid(), xor16(own_pid() % 65536, tonumber(child_pid) % 65536))
            assert.are.equal(want, cv:pid())
            assert.are.equal(want, cg:pid())
            assert.are.equal(parent_v:machine(), cv:machine())
            -- the process counter drawn anew: not the parent's next value
            assert.are_not.equal((parent_g:counter() + 1) % 16777216, cv:counter())
            assert.are_not.equal(parent_g:counter() + 1, cg:counter())
            assert.are.equal(parent_g:counter() + 1, mintid.parse_xid(g:next()):counter())
        end)

        it("a pid given as an option stays in a forked child, with a new counter start", function()
            local g = mintid.xid_generator { machine = "abc", pid = 7, clock = constant(S0) }
            local parent = mintid.parse_xid(g:next())
            local child = mintid.parse_xid(h.in_child(function() return g:next() end))
            assert.are.equal(7, child:pid())
            assert.are_not.equal(parent:counter() + 1, child:counter())
        end)
    end)
end)
