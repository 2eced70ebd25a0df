-- The lease fence (doc/leases.md): a
-- Snowflake generator made with `lease = l` mints only while l._fence is
-- held, in this process, before its deadline and past its floor, with the
-- fence's machine id at that moment; otherwise next() returns nil and a
-- message saying which. The leases themselves (lock file, Redis) are
-- specified elsewhere; here a bare fence of mintid._lease_fence() stands in.
-- Under MINTID_MODULE=resty.mintid the same specs run through the FFI path.
local h = require "helper"
local mintid = require(h.module_name)

local NOT_HELD = "snowflake: lease not held yet"
local EXPIRED = "snowflake: lease expired"
local LOST = "snowflake: lease lost"
local RELEASED = "snowflake: lease released"
local FORKED = "snowflake: lease belongs to the parent process (forked)"
local function waiting(floor) return "snowflake: waiting for the previous holder's last ms (until ms " .. floor .. ")" end
local function past_last(last) return "snowflake: lease expired: the clock passed its last ms (" .. last .. ")" end

local MS = 1700000000000

-- A lease object as the lease modules make them: a table with its fence.
local function new_lease()
    local f = mintid._lease_fence()
    return { _fence = f }, f
end

-- A generator on a new bare fence, on a clock the test sets (c.now):
-- g, its fence, the clock.
local function clocked_generator(layout)
    local f = mintid._lease_fence(layout)
    local c = h.clock_var()
    return mintid.snowflake_generator { lease = { _fence = f }, clock = c.fn }, f, c
end

-- next() must refuse with exactly msg.
local function assert_refuses(g, msg, where)
    local id, got = g:next()
    assert.are.equal(nil, id, where .. ": want a refusal, got ID " .. tostring(id))
    assert.are.equal(msg, got, where)
end

-- next() must mint; returns the ID's timestamp, machine id and sequence.
local function assert_mints(g, where, epoch)
    local id, msg = g:next()
    assert(id ~= nil, where .. ": want an ID, got nil, " .. tostring(msg))
    return h.snowflake_parts(id, epoch)
end

-- Waits s seconds of real time (the fence's deadline is on the OS's
-- monotonic clock, which no option replaces).
local function sleep(s)
    os.execute("sleep " .. s)
end

describe("lease fence", function()
    describe("states", function()
        it("a new fence is unheld and has no machine id", function()
            local f = mintid._lease_fence()
            assert.are.equal("unheld", f:state())
            assert.are.equal(nil, f:machine_id())
        end)

        it("f:clock() is the monotonic clock of the deadlines, in seconds", function()
            local f = mintid._lease_fence()
            local t0 = f:clock()
            assert.are.equal(true, f:hold(3, 5, 0))
            sleep(0.1)
            local elapsed = f:clock() - t0
            assert(elapsed >= 0.09 and elapsed < 2, "0.1 s slept, the clock moved " .. elapsed .. " s")
            local _, left = f:state()
            assert(math.abs(left - (5 - elapsed)) < 0.02,
                ("the seconds left (%s) are the validity less the clock's elapsed seconds (%s)"):format(left, elapsed))
        end)

        it("held: the machine id, and the seconds left to the deadline as a 2nd result", function()
            local f = mintid._lease_fence()
            assert.are.equal(true, f:hold(7, 30, 0))
            local state, left = f:state()
            assert.are.equal("held", state)
            assert(left > 29 and left <= 30, "seconds left within (29, 30], got " .. tostring(left))
            assert.are.equal(7, f:machine_id())
        end)

        it("held with math.huge: no deadline, math.huge seconds left", function()
            local f = mintid._lease_fence()
            f:hold(0, math.huge, 0)
            local state, left = f:state()
            assert.are.equal("held", state)
            assert.are.equal(math.huge, left)
        end)

        it("waiting while the wall clock has not passed the floor; the machine id is held", function()
            local f = mintid._lease_fence()
            f:hold(3, 30, os.time() * 1000 + 3600 * 1000)
            local state, left = f:state()
            assert.are.equal("waiting", state)
            assert(left > 29, "seconds left counted as when held, got " .. tostring(left))
            assert.are.equal(3, f:machine_id())
        end)

        it("expired once valid_for seconds have passed (real time); no machine id then", function()
            local f = mintid._lease_fence()
            f:hold(5, 0.05, 0)
            assert.are.equal("held", f:state())
            sleep(0.1)
            assert.are.equal("expired", f:state())
            assert.are.equal(nil, f:machine_id())
        end)

        it("expired once the wall clock passed last_ms, inside the deadline; held again by a hold", function()
            local f = mintid._lease_fence()
            local now = os.time() * 1000
            f:hold(4, 30, 0, nil, now - 10000)
            assert.are.equal("expired", f:state())
            assert.are.equal(nil, f:machine_id(), "no machine id once expired by the wall clock")
            f:hold(4, 30, 0, nil, now + 3600 * 1000)
            assert.are.equal("held", f:state())
            f:hold(4, 30, 0)
            assert.are.equal("held", f:state(), "no last_ms: no bound")
        end)

        it("valid_for 0 is expired at once", function()
            local f = mintid._lease_fence()
            f:hold(5, 0, 0)
            assert.are.equal("expired", f:state())
        end)

        it("released and lost after drop, with no machine id; a later hold holds again", function()
            local f = mintid._lease_fence()
            f:hold(9, 30, 0)
            assert.are.equal(true, f:drop("released"))
            assert.are.equal("released", f:state())
            assert.are.equal(nil, f:machine_id())
            f:hold(9, 30, 0)
            f:drop("lost")
            assert.are.equal("lost", f:state())
            assert.are.equal(nil, f:machine_id())
            f:hold(10, 30, 0)
            assert.are.equal("held", f:state())
            assert.are.equal(10, f:machine_id())
        end)

        it("a renewal replaces the deadline: an expired fence held again is held", function()
            local f = mintid._lease_fence()
            f:hold(5, 0, 0)
            assert.are.equal("expired", f:state())
            f:hold(5, 30, 0)
            assert.are.equal("held", f:state())
        end)

        it("tostring names the state and, while held, the machine id", function()
            local f = mintid._lease_fence()
            assert.are.equal("mintid.LeaseFence (unheld)", tostring(f))
            f:hold(12, 30, 0)
            assert.are.equal("mintid.LeaseFence (held, machine_id 12)", tostring(f))
        end)
    end)

    describe("a Snowflake generator on a lease", function()
        it("refuses before the lease is held", function()
            local l = new_lease()
            assert_refuses(mintid.snowflake_generator { lease = l }, NOT_HELD, "unheld")
        end)

        it("mints with the fence's machine id, in increasing order", function()
            local l, f = new_lease()
            local g = mintid.snowflake_generator { lease = l }
            f:hold(77, 30, 0)
            local a = g:next()
            local b = g:next()
            local _, mid = h.snowflake_parts(a)
            assert.are.equal(77, mid)
            assert(h.dec_cmp(h.dec(a), h.dec(b)) < 0, "IDs increase: " .. h.dec(a) .. " then " .. h.dec(b))
        end)

        it("follows a re-hold with another machine id, never the old one", function()
            local l, f = new_lease()
            local c = h.clock_var()
            c.now = MS
            local g = mintid.snowflake_generator { lease = l, clock = c.fn }
            f:hold(1, 30, 0)
            local _, mid1, seq1 = assert_mints(g, "first holder")
            f:drop("lost")
            assert_refuses(g, LOST, "lost")
            f:hold(2, 30, 0)
            local ts, mid2, seq2 = assert_mints(g, "re-held")
            assert.are.equal(1, mid1)
            assert.are.equal(2, mid2)
            assert.are.equal(MS, ts)
            assert.are.equal(seq1 + 1, seq2, "the sequence goes on in the same ms")
        end)

        it("refuses once the deadline passed (real time), and mints again after a renewal", function()
            local l, f = new_lease()
            local g = mintid.snowflake_generator { lease = l }
            f:hold(4, 0.05, 0)
            assert_mints(g, "inside the deadline")
            sleep(0.1)
            assert_refuses(g, EXPIRED, "past the deadline")
            f:hold(4, 30, 0)
            local _, mid = assert_mints(g, "renewed")
            assert.are.equal(4, mid)
        end)

        it("refuses after drop: released and lost say which", function()
            local l, f = new_lease()
            local g = mintid.snowflake_generator { lease = l }
            f:hold(4, 30, 0)
            f:drop("released")
            assert_refuses(g, RELEASED, "released")
            f:hold(4, 30, 0)
            f:drop("lost")
            assert_refuses(g, LOST, "lost")
        end)

        it("waits for the floor: refuses at and below it, naming it, then mints only later ms", function()
            local l, f = new_lease()
            local c = h.clock_var()
            local g = mintid.snowflake_generator { lease = l, clock = c.fn }
            f:hold(6, 30, MS + 5)
            c.now = MS
            assert_refuses(g, waiting(MS + 5), "below the floor")
            c.now = MS + 5
            assert_refuses(g, waiting(MS + 5), "at the floor")
            c.now = MS + 6
            local ts, mid = assert_mints(g, "past the floor")
            assert.are.equal(MS + 6, ts)
            assert.are.equal(6, mid)
        end)

        it("the floor is compared with the ms minted: a clock set back below it mints last ms, still above", function()
            local l, f = new_lease()
            local c = h.clock_var()
            local g = mintid.snowflake_generator { lease = l, clock = c.fn }
            f:hold(6, 30, 0)
            c.now = MS + 10
            assert_mints(g, "first")
            f:hold(8, 30, MS + 5) -- a new id whose previous holder used up to MS + 5
            c.now = MS
            local ts, mid = assert_mints(g, "clock back")
            assert.are.equal(MS + 10, ts)
            assert.are.equal(8, mid)
        end)

        it("stops after last_ms inside its deadline, naming it: a clock that did not count a suspend", function()
            local g, f, c = clocked_generator()
            f:hold(6, 3600, MS, nil, MS + 15000) -- an hour on the fence's clock, 15 s by the store's floor
            c.now = MS + 15000
            local ts, mid = assert_mints(g, "at last_ms")
            assert.are.same({ MS + 15000, 6 }, { ts, mid })
            c.now = MS + 15001
            assert_refuses(g, past_last(MS + 15000), "a ms past last_ms")
            c.now = MS + 60000 -- the wall clock after a suspend of a minute
            assert_refuses(g, past_last(MS + 15000), "after a suspend")
            f:hold(6, 3600, MS, nil, MS + 75000) -- a renewal's new floor
            assert.are.equal(MS + 60000, (assert_mints(g, "after the renewal")))
        end)

        it("last_ms is compared with the unit minted: a clock set back mints last ms, refused past last_ms", function()
            local g, f, c = clocked_generator()
            f:hold(6, 3600, 0)
            c.now = MS + 20
            assert_mints(g, "first")
            f:hold(6, 3600, 0, nil, MS + 10)
            c.now = MS
            assert_refuses(g, past_last(MS + 10), "the clock back below last_ms, the last ms minted past it")
        end)

        -- g mints Sonyflake's units of 10 ms on a fence held with last_ms
        -- MS + 5: the unit MS..MS+9 starts at MS, before it.
        local function assert_last_in_units(g, c)
            c.now = MS + 9
            assert.are.equal(MS, (assert_mints(g, "the unit that starts before last_ms", "sonyflake")))
            c.now = MS + 10
            assert_refuses(g, past_last(MS + 5), "the next unit")
        end

        it("last_ms in units: a unit that starts at or before it is minted whole, the next one refused", function()
            local g, f, c = clocked_generator("sonyflake") -- units of 10 ms from 1409529600000
            f:hold(9, 3600, 0, nil, MS + 5)
            assert_last_in_units(g, c)
        end)

        it("last_ms held before the fence took its layout: counted in the units of the layout then bound", function()
            local f = mintid._lease_fence()
            f:hold(9, 3600, 0, nil, MS + 5)
            local c = h.clock_var()
            assert_last_in_units(mintid.snowflake_generator { lease = { _fence = f }, clock = c.fn, layout = "sonyflake" }, c)
        end)

        it("a bad last_ms raises naming it, the fence unchanged", function()
            local f = mintid._lease_fence()
            f:hold(2, 30, 0)
            h.raises(function() return f:hold(3, 30, 0, nil, -1) end, "bad argument", "last_ms must be >= 0, got -1")
            h.raises(function() return f:hold(3, 30, 0, nil, "soon") end, "bad argument", "expected, got string")
            assert.are.equal(2, f:machine_id(), "a refused hold leaves the fence as it was")
        end)

        it("the floor with an epoch: the floor is Unix ms, not ms since the epoch", function()
            local l, f = new_lease()
            local c = h.clock_var()
            local epoch = MS - 1000
            local g = mintid.snowflake_generator { lease = l, clock = c.fn, epoch = epoch }
            f:hold(6, 30, MS)
            c.now = MS
            assert_refuses(g, waiting(MS), "at the floor")
            c.now = MS + 1
            assert.are.equal(MS + 1, (assert_mints(g, "past the floor", epoch)))
        end)

        it("generators on one fence share one sequence: never the same ID, even in one ms", function()
            local l, f = new_lease()
            local c = h.clock_var()
            c.now = MS
            local g1 = mintid.snowflake_generator { lease = l, clock = c.fn }
            local g2 = mintid.snowflake_generator { lease = l, clock = c.fn }
            f:hold(20, 30, 0)
            for i = 1, 4 do
                local ts, mid, seq = assert_mints(i % 2 == 1 and g1 or g2, "call " .. i)
                assert.are.equal(MS, ts)
                assert.are.equal(20, mid)
                assert.are.equal(i - 1, seq, "the generators take turns in one sequence")
            end
            f:drop("released")
            assert_refuses(g1, RELEASED, "g1")
            assert_refuses(g2, RELEASED, "g2")
        end)

        -- One fence, one layout: its generators share one sequence, so they
        -- must agree on every field of the layout, the epoch too (an epoch
        -- 1000 generator would make at MS + 1000 the very IDs an epoch 0 one
        -- made at MS).
        it("one fence, one layout: the first generator's; another epoch raises naming both, an equal one is accepted", function()
            local l, f = new_lease()
            local c = h.clock_var()
            c.now = MS
            local g0 = mintid.snowflake_generator { lease = l, clock = c.fn }
            h.raises(function() return mintid.snowflake_generator { lease = l, clock = c.fn, epoch = 1000 } end,
                "bad argument #1", "snowflake: lease layout 42/1/10/12/0/time-machine-seq, not "
                .. "42/1/10/12/1000/time-machine-seq")
            h.raises(function() return mintid.snowflake_generator { lease = l, layout = "discord" } end,
                "bad argument #1", "lease layout 42/1/10/12/0/time-machine-seq, not 42/1/10/12/1420070400000/")
            local same = mintid.snowflake_generator { lease = l, clock = c.fn, epoch = 0 }
            assert.is_truthy(mintid.snowflake_generator { lease = l, layout = "mintid" }, "an equal layout")
            f:hold(21, 30, 0)
            assert.are.equal(0, select(3, assert_mints(g0, "epoch 0")))
            assert.are.equal(1, select(3, assert_mints(same, "a second generator of epoch 0")))
        end)

        it("one fence, one layout: a fence bound while unheld stays bound after a drop; a generator given none takes it", function()
            local l, f = new_lease()
            local c = h.clock_var()
            c.now = MS
            mintid.snowflake_generator { lease = l, epoch = 1288834974657 }
            f:hold(22, 30, 0)
            f:drop("released")
            h.raises(function() mintid.snowflake_generator { lease = l, epoch = 0 } end,
                "bad argument #1", "snowflake: lease layout 42/1/10/12/1288834974657/"
                .. "time-machine-seq, not 42/1/10/12/0/time-machine-seq")
            local g = mintid.snowflake_generator { lease = l, clock = c.fn }
            f:hold(22, 30, 0)
            assert.are.equal(MS, (assert_mints(g, "the fence's epoch", 1288834974657)))
        end)

        it("a fence made with a layout: its generators mint it, machine ids in its range, floors in its units", function()
            local f = mintid._lease_fence("sonyflake")
            local l = { _fence = f }
            local c = h.clock_var()
            local g = mintid.snowflake_generator { lease = l, clock = c.fn }
            h.raises(function() return f:hold(65536, 30, 0) end, "bad argument",
                "machine_id must be 0..65535, got 65536")
            h.raises(function() return mintid.snowflake_generator { lease = l, epoch = 0 } end,
                "bad argument #1", "not 39/10/16/8/0/time-seq-machine")
            assert.are.equal("sonyflake", f:layout().name)
            assert.are.equal("39/10/16/8/1409529600000/time-seq-machine", select(2, f:layout()))
            f:hold(65535, 30, MS + 5) -- the previous holder minted up to MS + 5: the unit MS..MS+9 is its
            c.now = MS + 9
            assert_refuses(g, waiting(MS + 5), "inside the floor's unit")
            c.now = MS + 10
            local ts, mid, seq = assert_mints(g, "the next unit", "sonyflake")
            assert.are.same({ MS + 10, 65535, 0 }, { ts, mid, seq })
        end)

        it("keeps its fence alive: the lease table may go", function()
            local l, f = new_lease()
            f:hold(21, 30, 0)
            local g = mintid.snowflake_generator { lease = l }
            l, f = nil, nil -- luacheck: ignore 311
            collectgarbage()
            collectgarbage()
            assert.are.equal(21, select(2, assert_mints(g, "after a full collection")))
        end)

        it("keeps its fence alive whatever the debug library does to its user values", function()
            local l, f = new_lease()
            f:hold(23, 30, 0)
            local g = mintid.snowflake_generator { lease = l }
            h.clear_user_values(g)
            l, f = nil, nil -- luacheck: ignore 311
            collectgarbage()
            collectgarbage()
            -- fences of the same size, unheld, where the freed one was
            local others = {}
            for i = 1, 200 do others[i] = mintid._lease_fence() end
            assert.are.equal(23, select(2, assert_mints(g, "after its user values were cleared and a collection")))
            assert.are.equal("unheld", others[200]:state())
        end)

        it("the lease is read as Lua reads a field (an __index is honoured)", function()
            local f = mintid._lease_fence()
            f:hold(22, 30, 0)
            local l = setmetatable({}, { __index = function(_, k) if k == "_fence" then return f end end })
            local g = mintid.snowflake_generator { lease = l }
            assert.are.equal(22, select(2, assert_mints(g, "through __index")))
        end)
    end)

    describe("fork()", function()
        it("a child refuses with the parent's lease, and its fence reads forked", function()
            local l, f = new_lease()
            local g = mintid.snowflake_generator { lease = l }
            f:hold(30, 30, 0)
            assert_mints(g, "parent")
            local out = h.in_child(function()
                local id, msg = g:next()
                return tostring(id) .. "|" .. tostring(msg) .. "|" .. f:state() .. "|" .. tostring(f:machine_id())
            end)
            assert.are.equal("nil|" .. FORKED .. "|forked|nil", out)
            assert_mints(g, "the parent still mints")
        end)

        it("a fence made before fork() reads forked in the child whatever its state there", function()
            local out = {}
            for _, case in ipairs({ "unheld", "released", "lost" }) do
                local l, f = new_lease()
                local g = mintid.snowflake_generator { lease = l }
                if case ~= "unheld" then
                    f:hold(34, 30, 0)
                    f:drop(case)
                end
                out[#out + 1] = h.in_child(function()
                    local _, msg = g:next()
                    return f:state() .. ":" .. tostring(f:machine_id()) .. ":" .. msg
                end)
                assert.are.equal(case, f:state(), "the parent's fence is as it was")
            end
            assert.are.same({ "forked:nil:" .. FORKED, "forked:nil:" .. FORKED, "forked:nil:" .. FORKED }, out)
        end)

        it("a generator made in the child on the parent's fence refuses too", function()
            local l, f = new_lease()
            f:hold(31, 30, 0)
            local out = h.in_child(function()
                local id, msg = mintid.snowflake_generator { lease = l }:next()
                return tostring(id) .. "|" .. tostring(msg)
            end)
            assert.are.equal("nil|" .. FORKED, out)
        end)

        it("a child that holds the fence itself mints with its own machine id", function()
            local l, f = new_lease()
            local g = mintid.snowflake_generator { lease = l }
            f:hold(32, 30, 0)
            assert_mints(g, "parent")
            local out = h.in_child(function()
                f:hold(33, 30, 0)
                return tostring(select(2, h.snowflake_parts(assert(g:next()))))
            end)
            assert.are.equal("33", out)
            assert.are.equal(32, select(2, assert_mints(g, "the parent keeps its id")))
        end)
    end)

    describe("options", function()
        it("lease and machine_id together raise", function()
            local l = new_lease()
            h.raises(function() mintid.snowflake_generator { lease = l, machine_id = 1 } end,
                "bad argument #1", "machine_id and lease exclude each other: the lease gives the machine id")
        end)

        it("a lease that is not a table or userdata raises naming the option", function()
            h.raises(function() mintid.snowflake_generator { lease = 5 } end,
                "bad argument #1", "lease must be a lease object, got number")
        end)

        it("a lease whose _fence is not a fence raises naming what it is", function()
            h.raises(function() mintid.snowflake_generator { lease = { _fence = "x" } } end,
                "bad argument #1", "lease must be a lease object, got a table whose _fence is string, "
                .. "not a mintid._lease_fence()")
        end)
    end)
end)
