-- Generator objects across fork(): a generator made (and used) in a process
-- that then forks never repeats an ID of the parent in the child. Monotonic
-- ones (ULID, UUIDv7, relative) draw afresh on their first call in the
-- child, a UUIDv1/v6 one its node or clock_seq (never the parent's); a
-- Snowflake generator, whose machine_id is all that keeps processes apart,
-- refuses there, and so does a UUIDv1/v6 one with both fixed. This is nginx's case: generators made in
-- init_by_lua, used by the forked workers.
local h = require "helper"
local mintid = require(h.module_name)

-- Every process below mints in this frozen millisecond: a child that
-- continued its parent's (last_ms, counter) would make exactly the IDs the
-- parent makes next.
local MS = 1700000000000
local SECRET = "0123456789abcdef-fork"
local ROUNDS = 10

local function frozen_clock() return MS end

local in_child = h.in_child

-- Two IDs from next(), as "a b".
local function two(next)
    return next() .. " " .. next()
end

-- ROUNDS forks of a parent whose generator has state: the parent and the
-- child each make two IDs in the frozen ms. All are distinct, and each
-- process's two increase.
local function assert_fork_safe(kind, next)
    next() -- the parent's state, before the first fork
    local seen, count = {}, 0
    for _ = 1, ROUNDS do
        local child = in_child(function() return two(next) end)
        local parent = two(next)
        for _, pair in ipairs({ child, parent }) do
            local a, b = pair:match("^(%S+) (%S+)$")
            assert(a and b, kind .. ": two IDs, got " .. pair)
            assert(a < b, kind .. ": not increasing within one process: " .. pair)
            for _, id in ipairs({ a, b }) do
                assert(not seen[id], kind .. ": " .. id .. " made by both parent and child")
                seen[id] = true
                count = count + 1
            end
        end
    end
    assert.are.equal(4 * ROUNDS, count)
end

describe("fork()", function()
    -- So that string comparison is byte order whatever the locale.
    setup(function() os.setlocale("C", "collate") end)

    describe("generator objects made before the fork, minting in the parent's millisecond", function()
        it("ULID: the child draws afresh and repeats no ID of the parent", function()
            local g = mintid.ulid_generator { clock = frozen_clock }
            assert_fork_safe("ULID", function() return g:next() end)
        end)

        it("UUIDv7: the child draws afresh and repeats no ID of the parent", function()
            local g = mintid.uuid7_generator { clock = frozen_clock }
            assert_fork_safe("UUIDv7", function() return g:next() end)
        end)

        it("relative: the child draws afresh and repeats no ID of the parent", function()
            local g = mintid.relative_generator { secret = SECRET, clock = frozen_clock }
            assert_fork_safe("relative", function() return g:next("tenant-7") end)
        end)

        it("a generator first used in the child is fork-safe too", function()
            local g = mintid.ulid_generator { clock = frozen_clock }
            local child = in_child(function() return two(function() return g:next() end) end)
            local parent = two(function() return g:next() end)
            assert.are_not.equal(child, parent)
        end)
    end)

    describe("generator objects on the OS clock and random source", function()
        -- No hooks: under resty.mintid this is the FFI path. next() makes
        -- one ID; it is called 1,000 times in the child right after the
        -- fork and as often in the parent.
        local function assert_distinct_after_fork(next)
            next()
            local function many()
                local t = {}
                for i = 1, 1000 do t[i] = next() end
                return table.concat(t, " ")
            end
            local child = in_child(many)
            local seen, count = {}, 0
            for id in (child .. " " .. many()):gmatch("%S+") do
                assert(not seen[id], id .. " made twice")
                seen[id] = true
                count = count + 1
            end
            assert.are.equal(2000, count)
        end

        for _, kind in ipairs({ "ulid", "uuid7" }) do
            it(kind .. "_generator: 1,000 IDs of parent and child right after the fork are distinct", function()
                local g = mintid[kind .. "_generator"]()
                assert_distinct_after_fork(function() return g:next() end)
            end)
        end

        it("relative_generator: 1,000 IDs of parent and child right after the fork are distinct", function()
            local g = mintid.relative_generator { secret = SECRET }
            assert_distinct_after_fork(function() return g:next("k") end)
        end)

        it("the default functions: ulid(), uuid7() of parent and child right after the fork are distinct", function()
            local odd = false
            assert_distinct_after_fork(function()
                odd = not odd
                return odd and mintid.ulid() or mintid.uuid7()
            end)
        end)

        it("the trace context: trace_id(), span_id(), traceparent() of parent and child right after the fork "
            .. "are distinct", function()
            local turn = 0
            assert_distinct_after_fork(function()
                turn = turn % 3 + 1
                if turn == 1 then return mintid.trace_id() end
                if turn == 2 then return mintid.span_id() end
                return mintid.traceparent()
            end)
        end)
    end)

    describe("UUIDv1 and UUIDv6 generators made before the fork", function()
        -- The child's first call: its ID, or the error it raised.
        local function first_in_child(g)
            return in_child(function()
                local ok, id = pcall(g.next, g)
                return (ok and id or "error: " .. tostring(id))
            end)
        end

        for _, name in ipairs({ "uuid1_generator", "uuid6_generator" }) do
            local kind = name == "uuid1_generator" and "UUIDv1" or "UUIDv6"

            it(name .. " with both node and clock_seq fixed refuses in the child", function()
                for _, opts in ipairs({
                    { node = "\1\2\3\4\5\6", clock_seq = 7, clock = frozen_clock },
                    { node = "\1\2\3\4\5\6", clock_seq = 7 },
                }) do
                    local g = mintid[name](opts)
                    local before = g:next()
                    local got = first_in_child(g)
                    assert.are.equal("error: " .. kind .. " generator made in another process (before fork()) "
                        .. "with node and clock_seq fixed: make one per process", got)
                    -- the parent's generator goes on
                    assert.are_not.equal(before, g:next())
                end
            end)

            it(name .. " with both fixed works in the child that made it", function()
                local out = in_child(function()
                    return mintid[name]({ node = "\1\2\3\4\5\6", clock_seq = 7 }):next()
                end)
                assert.matches(h.UUID_PATTERN, out)
            end)

            -- A constant random option: the child draws exactly what its
            -- parent drew, so only a rule that never takes the parent's
            -- identity keeps them apart.
            local zeros = function(n) return ("\0"):rep(n) end
            for _, fixed in ipairs({
                { label = "node", opts = { node = "\1\2\3\4\5\6" } },
                { label = "clock_seq", opts = { clock_seq = 7 } },
                { label = "neither", opts = {} },
            }) do
                it(name .. " with " .. fixed.label .. " fixed: the child never takes its parent's node and clock_seq",
                    function()
                        local opts = { clock = frozen_clock, random = zeros }
                        for k, v in pairs(fixed.opts) do opts[k] = v end
                        local g = mintid[name](opts)
                        assert_fork_safe(kind, function() return g:next() end)
                    end)
            end
        end
    end)

    describe("Snowflake generators made before the fork", function()
        local function refusal_in_child(g)
            return in_child(function()
                local ok, err = pcall(g.next, g)
                return (ok and "no error" or tostring(err))
            end)
        end

        it("refuse in the child with an error that says to make one per process", function()
            local g = mintid.snowflake_generator { machine_id = 3 }
            local before = g:next()
            local err = refusal_in_child(g)
            assert.matches("made in another process", err, 1, true)
            assert.matches("machine_id", err, 1, true)
            -- the parent's generator goes on
            local after = g:next()
            assert.is_true(h.dec_cmp(h.dec(before), h.dec(after)) < 0)
        end)

        it("refuse in the child even when never used before the fork", function()
            local g = mintid.snowflake_generator { machine_id = 4 }
            assert.matches("made in another process", refusal_in_child(g), 1, true)
        end)

        it("refuse in the child with an injected clock too", function()
            local g = mintid.snowflake_generator { machine_id = 5, clock = frozen_clock }
            g:next()
            assert.matches("made in another process", refusal_in_child(g), 1, true)
        end)

        it("one made in the child works there", function()
            local out = in_child(function()
                local g = mintid.snowflake_generator { machine_id = 6 }
                return tostring(g:next())
            end)
            assert.matches("^%d+$", out)
        end)
    end)
end)
