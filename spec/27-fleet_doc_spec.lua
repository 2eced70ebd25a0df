-- What doc/fleet.md tells a fleet's operator, checked against the module:
-- the dates its layouts table gives, and the clock it says to give a
-- lease and the generators on it.
local h = require "helper"
local mintid = require(h.module_name)
local lease = require "mintid.lease"
local fake_redis = require "fake_redis"

local FLEET = "doc/fleet.md"

local function read(path) return assert(h.read_file(path)) end

local function real_ms() return mintid.parse_ulid(mintid.ulid()):time() end

describe("doc/fleet.md \"Layouts\"", function()
    local rows = {}
    for name, date in read(FLEET):gmatch('\n| `"(%a+)"` [^\n]-%(bit 63 from ([%d-]+)%) |') do
        rows[#rows + 1] = { name = name, date = date }
    end

    it("gives the date bit 63 comes for the presets whose fields fill 64 bits", function()
        local names = {}
        for i, row in ipairs(rows) do names[i] = row.name end
        assert.are.same({ "mintid", "discord", "instagram" }, names, "the rows that give a date")
    end)

    for _, row in ipairs(rows) do
        it(('"%s": bit 63 from %s, the first ms past half its time range, which the generator refuses')
            :format(row.name, row.date), function()
            local layout = mintid.snowflake_layout(row.name)
            local first = tonumber(layout.epoch) + 2 ^ (layout.time_bits - 1) * layout.time_unit_ms
            -- the day by mintid's own calendar: os.date runs out in 2038
            -- where time_t has 32 bits (armhf)
            local at = mintid.ulid_generator { clock = function() return first end }
            assert.are.equal(row.date, mintid.parse_ulid(at:next()):iso():sub(1, 10),
                "the UTC day of ms " .. ("%.0f"):format(first))
            local ms
            local g = mintid.snowflake_generator { layout = row.name, machine_id = 1, clock = function() return ms end }
            ms = first - 1
            assert.is_truthy(g:next(), "an ID at the ms before")
            ms = first
            local ok, id = pcall(g.next, g)
            assert.is_falsy(ok and id, "no ID at the ms itself")
        end)
    end
end)

describe("doc/fleet.md's clock for a lease and its generators", function()
    it("is one function in whole ms that the lease and a generator on it both take", function()
        local text = read(FLEET)
        local option = text:match("`(clock = function%(%) return [^`]- end)`")
        assert.is_truthy(option, FLEET .. " gives no `clock = function() return ... end` for lease and generator")
        -- ngx.now(): seconds with a fraction of a ms, as nginx gives them
        local env = { math = math, ngx = { now = function() return real_ms() / 1000 + 0.0004 end } }
        local chunk = "return { " .. option .. " }"
        local f = assert(setfenv and setfenv(assert(loadstring(chunk)), env) or load(chunk, "=clock", "t", env))
        local clock = f().clock

        local store = fake_redis.new()
        store.wall_ms = real_ms
        local l = lease.redis {
            connect = store:connector("nil_err"), namespace = "clock", machine_ids = { 5, 5 },
            ttl = 0.4, margin = 0.05, max_skew = 0.05, clock = clock, log = function() end,
            sleep = function(s) os.execute(("sleep %.3f"):format(s)) end,
        }
        assert.are.equal(5, l:acquire(), "the lease acquires with the clock")
        local g = mintid.snowflake_generator { lease = l, clock = clock }
        local before = clock()
        local id, err = g:next()
        assert.is_truthy(id, "a generator on the lease with the same clock mints: " .. tostring(err))
        local ms, machine = mintid.parse_snowflake(id)
        assert.are.equal(5, machine, "the lease's machine id")
        assert.is_true(tonumber(ms) >= before and tonumber(ms) <= clock(), "the ID's ms is the clock's")
        l:release()
    end)
end)
