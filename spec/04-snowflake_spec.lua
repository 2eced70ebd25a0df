-- Snowflake IDs (SPEC.md "Snowflake"): 42-bit ms since epoch | 10-bit machine
-- id | 12-bit sequence. IDs are integers on Lua 5.3/5.4 and decimal text on
-- 5.1/5.2/LuaJIT; values past 2^53 are compared as decimal text here.
local h = require "helper"
local mintid = require(h.module_name)

local SEQUENCE_COLUMNS = { "scenario", "machine_id", "epoch", "now_ms", "expect" }

-- The native type of a generated ID on this Lua.
local function assert_native(id, where)
    if h.has_integers then
        assert.are.equal("integer", math.type(id), where .. ": want an integer ID, got " .. tostring(id))
    else
        assert.are.equal("string", type(id), where .. ": want decimal text, got " .. type(id))
        assert.is_truthy(id:match("^%d+$"), where .. ": " .. id)
    end
end

describe("snowflake", function()
    describe("vectors", function()
        it("snowflake.txt: parse_snowflake of decimal text (and of integers where Lua has them)", function()
            h.each_vector("snowflake.txt", { "id", "epoch", "timestamp", "machine_id", "sequence" }, function(r, w)
                local epoch = h.num(r.epoch)
                for _, id in ipairs(h.id_forms(r.id)) do
                    local ww = w .. " (" .. type(id) .. ")"
                    local ts, mid, seq = mintid.parse_snowflake(id, epoch)
                    assert(ts ~= nil, ww .. ": nil, " .. tostring(mid))
                    assert.are.equal(r.timestamp, h.dec(ts), ww)
                    assert.are.equal(h.num(r.machine_id), mid, ww)
                    assert.are.equal(h.num(r.sequence), seq, ww)
                    if h.has_integers then
                        assert.are.equal("integer", math.type(ts), ww)
                        assert.are.equal("integer", math.type(mid), ww)
                        assert.are.equal("integer", math.type(seq), ww)
                    end
                    if epoch == 0 then
                        local ts0, mid0, seq0 = mintid.parse_snowflake(id)
                        assert.are.equal(ts, ts0, ww .. ": the epoch defaults to 0")
                        assert.are.equal(mid, mid0, ww)
                        assert.are.equal(seq, seq0, ww)
                    end
                end
            end)
        end)

        it("snowflake_sequence.txt: every scenario replayed on a new generator with an injected clock", function()
            h.replay_scenarios {
                file = "snowflake_sequence.txt", columns = SEQUENCE_COLUMNS,
                same = { "machine_id", "epoch" },
                new = mintid.snowflake_generator,
                options = function(first)
                    return { machine_id = h.num(first.machine_id), epoch = h.num(first.epoch) }
                end,
                expect = function(r, id, msg, w)
                    if r.expect == "error:range" then
                        h.assert_bad_data(id, msg, "snowflake timestamp", w)
                    elseif h.dec_cmp(r.expect, h.INT63_MAX) > 0 then
                        -- Lua reports bit 63 as bad data on every version
                        h.assert_bad_data(id, msg, "bit 63", w)
                    else
                        assert(id ~= nil, w .. ": want " .. r.expect .. ", got nil, " .. tostring(msg))
                        assert_native(id, w)
                        assert.are.equal(r.expect, h.dec(id), w)
                        local _, mid = h.snowflake_parts(id, h.num(r.epoch))
                        assert.are.equal(h.num(r.machine_id), mid, w)
                    end
                end,
            }
        end)
    end)

    describe("edge cases", function()
        it("defaults: machine id 1, epoch 0", function()
            local g = mintid.snowflake_generator { clock = function() return 1000 end }
            local id = g:next()
            assert_native(id, "default")
            assert.are.equal("4194308096", h.dec(id)) -- 1000 << 22 | 1 << 12
            local ts, mid, seq = mintid.parse_snowflake(id)
            assert.are.equal(1000, ts)
            assert.are.equal(1, mid)
            assert.are.equal(0, seq)
        end)

        it("4096 IDs per ms, then the clock is read again: the 4097th ID is sequence 0 at the next ms", function()
            local T = 1700000000000
            local calls, advance_after = 0, nil
            local clock = function()
                calls = calls + 1
                if advance_after and calls > advance_after then return T + 1 end
                return T
            end
            local g = mintid.snowflake_generator { machine_id = 7, clock = clock }
            local prev
            for i = 0, 4095 do
                local id, err = g:next()
                assert(id ~= nil, "ID " .. i .. ": " .. tostring(err))
                local ts, mid, seq = h.snowflake_parts(id)
                assert.are.equal(T, ts)
                assert.are.equal(7, mid)
                assert.are.equal(i, seq)
                if prev then assert.is_true(h.dec_cmp(prev, id) < 0) end
                prev = id
            end
            -- the next call sees T five more times before the clock passes it
            local before = calls
            advance_after = calls + 5
            local id, err = g:next()
            assert(id ~= nil, "4097th ID: " .. tostring(err))
            local ts, mid, seq = h.snowflake_parts(id)
            assert.are.equal(T + 1, ts)
            assert.are.equal(7, mid)
            assert.are.equal(0, seq)
            assert.is_true(h.dec_cmp(prev, id) < 0)
            assert.are.equal(h.snowflake_dec(T + 1, 7, 0), h.dec(id))
            assert.is_true(calls >= before + 6, "the clock was read " .. (calls - before) .. " times, want >= 6")
        end)

        it("a clock that never passes an exhausted ms gives nil, message, and the state stays usable", function()
            local T, now = 1700000000000, 1700000000000
            local calls = 0
            local g = mintid.snowflake_generator { clock = function() calls = calls + 1; return now end }
            for _ = 1, 4096 do assert.is_not_nil(g:next()) end
            local before = calls
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "clock stuck at ms " .. T, "stuck clock")
            assert.is_truthy(msg:find("4096 IDs used", 1, true), msg)
            assert.is_true(calls - before > 1000, "the clock was read only " .. (calls - before) .. " times")
            now = T + 1
            local ts, _, seq = h.snowflake_parts(g:next())
            assert.are.equal(T + 1, ts)
            assert.are.equal(0, seq)
        end)

        it("bit 63 is bad data on every Lua (epoch 0, ms >= 2^41), and leaves the state unchanged", function()
            local now = h.int(2 ^ 41)
            local g = mintid.snowflake_generator { clock = function() return now end }
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "sets bit 63", "ms 2^41")
            assert.is_truthy(msg:find("later epoch", 1, true), msg)
            now = h.int(2 ^ 42 - 1)
            id, msg = g:next()
            h.assert_bad_data(id, msg, "sets bit 63", "ms 2^42 - 1")
            -- nothing was recorded: a new ms 1000 starts at sequence 0
            now = 1000
            id = g:next()
            assert.are.equal("4194308096", h.dec(id))
            -- the largest signed time at epoch 0 still works
            now = h.int(2 ^ 41 - 1)
            id = g:next()
            assert_native(id, "2^41 - 1")
            assert.are.equal(h.snowflake_dec("2199023255551", 1, 0), h.dec(id))
            assert.are.equal("9223372036850585600", h.dec(id))
            -- a later epoch moves the limit
            local g2 = mintid.snowflake_generator { epoch = 1000, clock = function() return h.int(2 ^ 41) end }
            local ts = h.snowflake_parts(g2:next(), 1000)
            assert.are.equal(h.int(2 ^ 41), ts)
        end)

        it("timestamps before the epoch or more than 42 bits past it are nil, message", function()
            local now = 5
            local g = mintid.snowflake_generator { epoch = 10, clock = function() return now end }
            local id, msg = g:next()
            h.assert_bad_data(id, msg, nil, "before epoch")
            assert.are.equal("snowflake timestamp 5 is before epoch 10", msg)
            now = -1
            id, msg = g:next()
            assert.is_nil(id)
            assert.are.equal("snowflake timestamp -1 is before epoch 10", msg)
            local g0 = mintid.snowflake_generator { epoch = 0, clock = function() return h.int(2 ^ 42) end }
            id, msg = g0:next()
            h.assert_bad_data(id, msg, nil, "past 42 bits")
            assert.are.equal("snowflake timestamp 4398046511104 is more than 42 bits past epoch 0", msg)
            now = 10
            local ts, _, seq = h.snowflake_parts(g:next(), 10)
            assert.are.equal(10, ts)
            assert.are.equal(0, seq)
        end)

        it("the epoch in the future of the OS clock is nil, message", function()
            local g = mintid.snowflake_generator { epoch = 4000000000000 } -- the year 2096
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "is before epoch 4000000000000", "future epoch")
        end)

        it("parse_snowflake takes 1..20 digits up to 2^64 - 1 and nothing else", function()
            local ts, mid, seq = mintid.parse_snowflake("18446744073709551615")
            assert.are.equal("4398046511103", h.dec(ts))
            assert.are.equal(1023, mid)
            assert.are.equal(4095, seq)
            ts, mid, seq = mintid.parse_snowflake(4194308096) -- a number works on every Lua
            assert.are.equal(1000, ts)
            assert.are.equal(1, mid)
            assert.are.equal(0, seq)
            local cases = {
                { "", "invalid snowflake ID: empty" },
                { "12x", "invalid snowflake ID: bad character 'x' at 3" },
                { "-1", "invalid snowflake ID: bad character '-' at 1" },
                { "+1", "invalid snowflake ID: bad character '+' at 1" },
                { " 1", "invalid snowflake ID: bad character 0x20 at 1" },
                { "1 ", "invalid snowflake ID: bad character 0x20 at 2" },
                { "1e3", "invalid snowflake ID: bad character 'e' at 2" },
                { "0x10", "invalid snowflake ID: bad character 'x' at 2" },
                { "18446744073709551616", "invalid snowflake ID: more than 2^64 - 1" },
                { "99999999999999999999", "invalid snowflake ID: more than 2^64 - 1" },
                { "123456789012345678901", "invalid snowflake ID" },
            }
            h.each_bad_input(mintid.parse_snowflake, cases, "contains")
            h.rejects(function() return mintid.parse_snowflake(1.5) end, "1.5")
        end)

        it("a number ID up to 2^53 - 1 where numbers are doubles; past it, decimal text", function()
            local ts, mid, seq = mintid.parse_snowflake(2 ^ 53 - 1)
            assert.are.equal("2147483647", h.dec(ts))
            assert.are.equal(1023, mid)
            assert.are.equal(4095, seq)
            if math.type then
                -- 64-bit integers (5.3+): 2^53 is an integer-valued float, taken as it is
                assert.are.equal("2147483648", h.dec((mintid.parse_snowflake(2 ^ 53))))
            else
                for _, x in ipairs({ 2 ^ 53, 2 ^ 60, math.huge, 0 / 0 }) do
                    h.raises(function() return mintid.parse_snowflake(x) end, "bad argument #1",
                        "a number snowflake ID must be an integer below 2^53 on this Lua; pass larger IDs as decimal text")
                end
            end
        end)

        it("a generator with the OS clock makes strictly increasing IDs past 4096 per ms", function()
            -- a recent epoch keeps bit 63 clear long after 2039 (epoch 0's limit)
            local epoch = 1288834974657
            local g = mintid.snowflake_generator { machine_id = 1023, epoch = epoch }
            local prev = g:next()
            assert_native(prev, "OS clock")
            for _ = 1, 10000 do
                local id = g:next()
                assert.is_true(h.dec_cmp(prev, id) < 0, h.dec(prev) .. " !< " .. h.dec(id))
                prev = id
            end
            local ts, mid = h.snowflake_parts(prev, epoch)
            assert.are.equal(1023, mid)
            assert.is_true(math.abs(ts - os.time() * 1000) < 5000, "timestamp " .. tostring(ts))
        end)
    end)
end)
