-- Snowflake layouts (doc/fleet.md "Layouts", SPEC "Snowflake layouts"):
-- T time bits of U-ms units since epoch E, M machine bits, S sequence bits,
-- in the order time-machine-seq or time-seq-machine. The presets are the
-- formats other systems store. IDs are integers on Lua 5.3/5.4 and decimal
-- text on 5.1/5.2/LuaJIT, whatever the layout.
local h = require "helper"
local mintid = require(h.module_name)

local PRESETS = {
    mintid = { 42, 1, 10, 12, 0, "time-machine-seq" },
    twitter = { 41, 1, 10, 12, 1288834974657, "time-machine-seq" },
    discord = { 42, 1, 10, 12, 1420070400000, "time-machine-seq" },
    instagram = { 41, 1, 13, 10, 1314220021721, "time-machine-seq" },
    sonyflake = { 39, 10, 16, 8, 1409529600000, "time-seq-machine" },
}

-- A vector file's layout column: a preset name, or "T/U/M/S/E/order" as a table.
local function layout_of(text)
    if PRESETS[text] then return text end
    local t, u, m, s, e, order = text:match("^(%d+)/(%d+)/(%d+)/(%d+)/(%d+)/([%a%-]+)$")
    assert(t, "layout column " .. text)
    return { time_bits = h.num(t), time_unit_ms = h.num(u), machine_bits = h.num(m), seq_bits = h.num(s),
             epoch = h.num(e), order = order }
end

-- An injected clock whose reading the test sets.
local function clocked(opts)
    local c = h.clock_var()
    opts.clock = c.fn
    return mintid.snowflake_generator(opts), c
end

local function parts(id, layout)
    local ts, mid, seq = mintid.parse_snowflake(id, layout)
    assert(ts ~= nil, "parse_snowflake(" .. tostring(id) .. "): nil, " .. tostring(mid))
    return ts, mid, seq
end

describe("snowflake layouts", function()
    describe("vectors", function()
        it("snowflake_layout.txt: parse_snowflake(id, layout) of decimal text and native integers", function()
            h.each_vector("snowflake_layout.txt", { "layout", "id", "timestamp", "machine_id", "sequence" },
                function(r, w)
                    local layout = layout_of(r.layout)
                    for _, id in ipairs(h.id_forms(r.id)) do
                        local ww = w .. " (" .. type(id) .. ")"
                        local ts, mid, seq = mintid.parse_snowflake(id, layout)
                        if r.timestamp == "error:parse" then
                            h.assert_bad_data(ts, mid, "not of this layout", ww)
                        else
                            assert(ts ~= nil, ww .. ": nil, " .. tostring(mid))
                            assert.are.equal(r.timestamp, h.dec(ts), ww)
                            assert.are.equal(r.machine_id, h.dec(mid), ww)
                            assert.are.equal(r.sequence, h.dec(seq), ww)
                        end
                    end
                end)
        end)

        it("snowflake_layout_sequence.txt: every scenario replayed on a generator of its layout", function()
            h.replay_scenarios {
                file = "snowflake_layout_sequence.txt",
                columns = { "scenario", "layout", "machine_id", "now_ms", "expect" },
                same = { "layout", "machine_id" },
                new = mintid.snowflake_generator,
                options = function(first)
                    return { layout = layout_of(first.layout), machine_id = h.num(first.machine_id) }
                end,
                expect = function(r, id, msg, w)
                    if r.expect == "error:range" then
                        assert.are.equal(nil, id, w)
                        assert(msg:find("snowflake timestamp", 1, true) or msg:find("bit 63", 1, true), w .. ": " .. msg)
                    else
                        assert(id ~= nil, w .. ": want " .. r.expect .. ", got nil, " .. tostring(msg))
                        assert.are.equal(r.expect, h.dec(id), w)
                        local _, mid = parts(id, layout_of(r.layout))
                        assert.are.equal(h.num(r.machine_id), mid, w)
                    end
                end,
            }
        end)
    end)

    describe("snowflake_layout", function()
        it("gives each preset's published fields, order and name", function()
            for name, f in pairs(PRESETS) do
                assert.are.same({ time_bits = f[1], time_unit_ms = f[2], machine_bits = f[3], seq_bits = f[4],
                                  epoch = f[5], order = f[6], name = name }, mintid.snowflake_layout(name), name)
            end
        end)

        it("fills a table's defaults (unit 1, epoch 0, time-machine-seq) and names a table equal to a preset", function()
            assert.are.same({ time_bits = 41, time_unit_ms = 1, machine_bits = 4, seq_bits = 8, epoch = 0,
                              order = "time-machine-seq" },
                mintid.snowflake_layout { time_bits = 41, machine_bits = 4, seq_bits = 8 })
            assert.are.equal("mintid", mintid.snowflake_layout { time_bits = 42, machine_bits = 10, seq_bits = 12 }.name)
            -- its own output is a layout, name and all
            local t = mintid.snowflake_layout("instagram")
            assert.are.same(t, mintid.snowflake_layout(t))
        end)

        it("reads the table as Lua reads fields (an __index is honoured)", function()
            local t = setmetatable({}, { __index = { time_bits = 39, time_unit_ms = 10, machine_bits = 16,
                                                     seq_bits = 8, epoch = 1409529600000, order = "time-seq-machine" } })
            assert.are.equal("sonyflake", mintid.snowflake_layout(t).name)
        end)

        it("raises naming the field on a bad layout", function()
            local base = { time_bits = 41, machine_bits = 10, seq_bits = 12 }
            local function with(k, v)
                local t = {}
                for kk, vv in pairs(base) do t[kk] = vv end
                t[k] = v
                return t
            end
            local cases = {
                { with("shard_bits", 3), "layout: unknown field 'shard_bits'" },
                { with("time_bits", 41.5), "layout: time_bits must be an integer, got 41.5" },
                { with("seq_bits", "12"), "layout: seq_bits must be an integer, got string" },
                { with("time_bits", 43), "layout: time_bits + machine_bits + seq_bits must be <= 64, got 65" },
                { with("seq_bits", 0), "layout: seq_bits must be 1..64, got 0" },
                { with("time_bits", 0), "layout: time_bits must be 1..64, got 0" },
                { with("machine_bits", -1), "layout: machine_bits must be 0..64, got -1" },
                { with("time_unit_ms", 0), "layout: time_unit_ms must be 1..4294967295, got 0" },
                { with("epoch", -1), "layout: epoch must be >= 0, got -1" },
                { with("order", "machine-time-seq"), "layout: order must be \"time-machine-seq\" or \"time-seq-machine\"" },
                { with("name", "twitter"), "layout: name \"twitter\" is not the preset of these fields (none)" },
                { { time_bits = 41, seq_bits = 12 }, "layout: field 'machine_bits' is required" },
                { "snowflake", "layout: unknown layout preset 'snowflake' (mintid, twitter, discord, instagram, sonyflake)" },
                { 42, "layout: a preset name or a table expected, got number" },
                { { [1] = 42 }, "layout: field names must be strings, got number" },
            }
            for _, c in ipairs(cases) do
                h.raises(function() return mintid.snowflake_layout(c[1]) end, "bad argument #1", c[2])
                h.raises(function() return mintid.snowflake_generator { layout = c[1] } end, "bad argument #1", c[2])
                if type(c[1]) ~= "number" then
                    h.raises(function() return mintid.parse_snowflake("1", c[1]) end, "bad argument #2", c[2])
                end
            end
        end)
    end)

    describe("generators", function()
        it("machine_id is checked against the layout: 0..2^M - 1", function()
            assert.is_truthy(mintid.snowflake_generator { layout = "sonyflake", machine_id = 65535 })
            assert.is_truthy(mintid.snowflake_generator { layout = "instagram", machine_id = 8191 })
            h.raises(function() return mintid.snowflake_generator { layout = "sonyflake", machine_id = 65536 } end,
                "bad argument #1", "machine_id must be 0..65535, got 65536")
            h.raises(function() return mintid.snowflake_generator { layout = "instagram", machine_id = 8192 } end,
                "bad argument #1", "machine_id must be 0..8191, got 8192")
            local machineless = { time_bits = 48, machine_bits = 0, seq_bits = 15 }
            h.raises(function() return mintid.snowflake_generator { layout = machineless } end,
                "bad argument #1", "machine_id must be 0..0, got 1")
            assert.is_truthy(mintid.snowflake_generator { layout = machineless, machine_id = 0 })
        end)

        it("an epoch option replaces the layout's", function()
            local g, c = clocked { layout = "sonyflake", machine_id = 3, epoch = 1700000000000 }
            c.now = 1700000000105
            local ts, mid = parts(g:next(), { time_bits = 39, time_unit_ms = 10, machine_bits = 16, seq_bits = 8,
                                              epoch = 1700000000000, order = "time-seq-machine" })
            assert.are.same({ 1700000000100, 3 }, { ts, mid })
        end)

        it("sonyflake: the sequence restarts each new 10 ms unit, not each ms; a step back continues the unit", function()
            local T = 1700000000000 -- a unit start: (T - epoch) is a multiple of 10
            local g, c = clocked { layout = "sonyflake", machine_id = 9 }
            local seen = {}
            for i, now in ipairs { T, T + 3, T + 9, T + 10, T + 4, T + 25 } do
                c.now = now
                local ts, mid, seq = parts(g:next(), "sonyflake")
                seen[i] = { ts, mid, seq }
            end
            assert.are.same({ { T, 9, 0 }, { T, 9, 1 }, { T, 9, 2 }, { T + 10, 9, 0 }, { T + 10, 9, 1 },
                              { T + 20, 9, 0 } }, seen)
        end)

        it("an exhausted sequence waits for the next unit, bounded by max_wait_ms", function()
            local layout = { time_bits = 41, time_unit_ms = 100, machine_bits = 4, seq_bits = 2 }
            local T, calls = 1700000000000, 0
            local now = T
            local g = mintid.snowflake_generator { layout = layout, machine_id = 1, clock = function()
                calls = calls + 1
                if calls > 6 then now = now + 50 end
                return now
            end }
            for i = 0, 3 do assert.are.equal(i, select(3, parts(g:next(), layout))) end
            local ts, _, seq = parts(g:next(), layout)
            assert.are.same({ T + 100, 0 }, { ts, seq }, "the 5th ID is the next unit's first")
            -- a unit that max_wait_ms cannot reach: nil, message, the state kept
            local g2, c = clocked { layout = layout, machine_id = 1, max_wait_ms = 10 }
            c.now = T
            for _ = 0, 3 do assert(g2:next()) end
            local id, msg = g2:next()
            h.assert_bad_data(id, msg, "snowflake: 4 IDs used at ms " .. T .. " and max_wait_ms 10 forbids waiting "
                .. "for the next unit", "unit not reachable")
            c.now = T + 100
            assert.are.same({ T + 100, 1, 0 }, { parts(g2:next(), layout) })
        end)

        it("a time that does not fit time_bits is nil, message", function()
            local g, c = clocked { layout = { time_bits = 20, time_unit_ms = 1000, machine_bits = 2, seq_bits = 2 } }
            c.now = 1048576 * 1000
            h.assert_bad_data(g:next(), select(2, g:next()), "is more than 20 bits of units past epoch 0", "past T")
            c.now = 1048575 * 1000 + 999
            assert.is_truthy(g:next(), "the last unit")
        end)

        it("a layout of at most 53 bits: IDs that are exact JavaScript and Lua 5.1 numbers", function()
            local layout = { time_bits = 41, machine_bits = 4, seq_bits = 8, epoch = 1600000000000 }
            local g, c = clocked { layout = layout, machine_id = 15 }
            c.now = 1600000000000 + 2 ^ 41 - 1
            local id = g:next()
            assert.are.equal(h.dec(2 ^ 53 - 256), h.dec(id), "the last unit's first ID")
            assert.are.same({ 1600000000000 + 2 ^ 41 - 1, 15, 0 }, { parts(tonumber(id), layout) })
        end)

        it("parse with the wrong layout: bits above its width are nil, message", function()
            local g, c = clocked { layout = "mintid", machine_id = 5 }
            c.now = 1700000000000
            local id = g:next()
            local ts, msg = mintid.parse_snowflake(id, { time_bits = 41, machine_bits = 4, seq_bits = 8 })
            h.assert_bad_data(ts, msg, "sets bits above the layout's 53: not of this layout", "a mintid ID, 53 bits")
        end)
    end)
end)
