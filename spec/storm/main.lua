-- Finalizer-storm mode (spec/storm/run.sh runs it on every Lua and module).
--
-- Runs every case of cases.lua twice from the same seed: calm, then under
-- the storm of storm.lua, call by call, and checks each storm result:
--   * the subject closed by a finalizer during the call, or before it: the
--     call fails with the closed-generator error (or the very error the
--     calm run gave): it never returns an ID;
--   * otherwise the calm run's result, or a clean error (a one-line
--     message, raised or as nil, message) that the case names as expected
--     (h.expect).
-- One instance in three of a case with a mint function (h.mint) is echoed:
-- at the first ticks of each call the conductor mints from the subject
-- too, so that the call's ID is made stale under it. Its results then
-- differ from the calm run's: each must be clean, of the calm result's
-- shape, and no ID (of the steps or of the echo) may come out twice.
-- It also finds every public function (the module table, and the methods
-- and metamethods of every generator and value the cases meet) and fails
-- naming any that no case calls.
-- Prints TAP, one test per case, then the coverage test and a self-check.
--
-- Environment: STORM_MODULE (mintid or resty.mintid), STORM_SECONDS (CPU
-- seconds to spend, default 4; at least two rounds run), STORM_SEED,
-- STORM_LABEL (a prefix for the test names).
local storm = require "storm.storm"

local MODULE = os.getenv("STORM_MODULE") or "mintid"
local SECONDS = tonumber(os.getenv("STORM_SECONDS") or "4")
local SEED = tonumber(os.getenv("STORM_SEED") or "1")
local LABEL = os.getenv("STORM_LABEL") or MODULE
local M = require(MODULE)
local has_ffi, ffi = pcall(require, "ffi")
local CLOSED = "attempt to use a closed"
-- A file that gets a line before each call under the storm, so that a run
-- that crashes or hangs says where.
local TRACE = os.getenv("STORM_TRACE") and assert(io.open(os.getenv("STORM_TRACE"), "w"))
if TRACE then TRACE:setvbuf("no") end

---------------------------------------------------------------------------
-- The cases.

local cases, section_name = {}, nil

local function section(name, body)
    section_name = name
    body()
    section_name = nil
end

-- Lua patterns: run only the cases whose names ONLY finds, and none that SKIP finds.
local ONLY, SKIP = os.getenv("STORM_ONLY"), os.getenv("STORM_SKIP")

local function new_case(list, name, build)
    if list == cases and (ONLY and not name:find(ONLY) or SKIP and name:find(SKIP)) then return end
    list[#list + 1] = { name = name, section = section_name, build = build, calls = 0, failures = {}, order = {},
        ticks = {} }
end

require "storm.cases"(M, {
    section = section,
    case = function(label, build) new_case(cases, section_name .. ": " .. label, build) end,
    ffi = has_ffi and ffi or nil,
    poke = storm.poke,
})

---------------------------------------------------------------------------
-- Public functions: found at run time, covered when a calm run calls them.

local public = {} -- function -> name
local covered = {} -- function -> true
local met = {}     -- metatables already walked

local function c_or_lua(f)
    return debug.getinfo(f, "S").what == "C" and "C" or "Lua"
end

local function find_methods(v)
    local mt = debug.getmetatable(v)
    if type(mt) ~= "table" or met[mt] then return end
    met[mt] = true
    local kind = tostring(rawget(mt, "__name") or type(v))
    for k, f in pairs(mt) do
        if type(f) == "function" then
            public[f] = public[f] or (kind .. "." .. tostring(k) .. " (" .. c_or_lua(f) .. ")")
        end
    end
    if type(rawget(mt, "__index")) == "table" then
        for k, f in pairs(mt.__index) do
            if type(f) == "function" then
                public[f] = public[f] or (kind .. ":" .. tostring(k) .. " (" .. c_or_lua(f) .. ")")
            end
        end
    end
end

for k, f in pairs(M) do
    if type(f) == "function" then public[f] = MODULE .. "." .. k end
end

local function record_call()
    local info = debug.getinfo(2, "f")
    if info and public[info.func] then covered[info.func] = true end
end

---------------------------------------------------------------------------
-- Instances: a case built from a seed, with the helpers cases.lua describes.
-- role: "calm", "storm" (the subject is the storm's), or "nested" (run
-- by a finalizer, results ignored).

local function instance(c, seed, role)
    local inst = { steps = {}, subject = false, mint = false, expected = {} }
    local n = storm.prng(seed)
    local h = { n = n }
    function h.pick(list)
        return list[n(list.n or #list)]
    end
    function h.clock(base)
        local ms = base or 1469922850259 + n(1000)
        local as_cdata = has_ffi and n(3) == 1
        return function()
            storm.poke()
            local r = n(10)
            if r > 6 then ms = ms + 1 elseif r == 6 then ms = ms - 1 end
            if as_cdata then return ffi.new("int64_t", ms) end
            return ms
        end
    end
    function h.random(fill)
        return function(size)
            storm.poke()
            local t = {}
            for i = 1, size do t[i] = string.char(fill or n(256) - 1) end
            return table.concat(t)
        end
    end
    function h.opts(t)
        if type(t) ~= "table" or n(2) == 1 then return t end
        return setmetatable({}, { __index = function(_, k) storm.poke(); return t[k] end })
    end
    function h.see(v)
        if role ~= "nested" then find_methods(v) end
        return v
    end
    function h.use(g)
        inst.subject = g
        if role == "storm" then storm.set_subject(g) end
        return h.see(g)
    end
    function h.mint(fn)
        inst.mint = fn
        return fn
    end
    function h.expect(text)
        inst.expected[#inst.expected + 1] = text
    end
    function h.step(name, fn, like)
        inst.steps[#inst.steps + 1] = { name = name, fn = fn, like = like }
    end
    local ok, err = pcall(c.build, h)
    if not ok then
        inst.steps = {}
        if role ~= "nested" then c.broken = tostring(err) end
    end
    return inst
end

---------------------------------------------------------------------------
-- Results as comparable text.

local function show(v)
    local t = type(v)
    if t == "string" then return string.format("%q", v):gsub("\\\n", "\\n") end
    if t == "number" then
        if math.type and math.type(v) == "integer" then return tostring(v) end
        return string.format("%.17g", v)
    end
    if t == "userdata" then
        find_methods(v)
        local mt = debug.getmetatable(v)
        local _, text = pcall(tostring, v)
        return tostring(type(mt) == "table" and rawget(mt, "__name") or t) .. " " .. tostring(text)
    end
    if t == "cdata" then return "cdata " .. tostring(v) end
    return tostring(v)
end

local function outcome(like, ok, r1, r2, r3, r4)
    if not ok then return "error " .. show(r1) end
    if like and r1 ~= nil then
        local pok, p = pcall(like, r1, r2, r3, r4)
        return pok and ("like " .. tostring(p)) or ("projection failed: " .. tostring(p))
    end
    local list = { show(r1), show(r2), show(r3), show(r4) }
    while #list > 0 and list[#list] == "nil" do list[#list] = nil end
    return "return " .. table.concat(list, ", ")
end

local function is_clean(ok, r1, r2)
    if not ok then return type(r1) == "string" and not r1:find("\n") end
    return r1 == nil and type(r2) == "string" and not r2:find("\n")
end

---------------------------------------------------------------------------
-- Runs.

local R = storm.prng(SEED)
local total_calls, echoed_calls, echoed_errors, echoes = 0, 0, 0, 0

local function run_calm(c, seed, hooked)
    local inst = instance(c, seed, "calm")
    local out = {}
    if hooked then debug.sethook(record_call, "c") end
    for i, st in ipairs(inst.steps) do
        out[i] = outcome(st.like, storm.calm(st.fn))
    end
    if hooked then debug.sethook() end
    return out
end

local function fail(c, why, example)
    if not c.failures[why] then
        c.failures[why] = { count = 0, example = example }
        c.order[#c.order + 1] = why
    end
    c.failures[why].count = c.failures[why].count + 1
end

-- At most 100 bytes of a result, printable (TAP is text).
local function brief(text)
    if #text > 100 then text = text:sub(1, 100) .. "..." end
    return (text:gsub("[^\32-\126]", function(c) return "\\" .. c:byte() end))
end

-- A result with every letter and digit an x.
local function shape_of(outcome_text)
    return (outcome_text:gsub("%w", "x"))
end

-- Whether an outcome's text is that of a clean error.
local function is_clean_outcome(text)
    return text:find("^error ") ~= nil or text:find("^return nil, ") ~= nil
end

local function expected(inst, got)
    for _, text in ipairs(inst.expected) do
        if got:find(text, 1, true) then return true end
    end
    return false
end

-- One step's storm result against the calm one. echoed: the IDs the
-- instance's mints gave (text -> true), when the conductor mints too.
local function judge(c, inst, st, got, calm, closed_now, closed_before, ticks, echoed, ok, r1, r2)
    local clean = is_clean(ok, r1, r2)
    local where = "step '" .. st.name .. "'" .. (closed_now and (", closed at tick " .. closed_now) or "")
        .. (echoed and ", echoed" or "") .. ", " .. ticks .. " ticks: got " .. brief(got) .. "; calm: " .. brief(calm)
    if not ok and not clean then
        fail(c, "an error that is not a one-line message", where)
    elseif closed_now or closed_before then
        local closed_error = not ok and r1:find(CLOSED, 1, true)
        if not closed_error and not (clean and (got == calm or echoed)) then
            fail(c, (closed_now and "closed by a finalizer during the call" or "closed by a finalizer before the call")
                .. (got == calm and ", yet returned the calm result" or ", yet returned a result the calm run did not"),
                where)
        end
    elseif echoed then
        -- A clean error is any echoed call's right (it gave up, or its
        -- clock or counter ran on); a result has the calm result's shape.
        if not clean and not is_clean_outcome(calm) and shape_of(got) ~= shape_of(calm) then
            fail(c, "echoed, a result of another shape than the calm one", where)
        end
        if ok and r1 ~= nil and st.fn == inst.mint then
            local id = tostring(r1)
            if echoed[id] then fail(c, "echoed, an ID that came out twice", where .. " (" .. brief(id) .. ")") end
            echoed[id] = true
        end
    elseif got ~= calm then
        if clean then
            if not expected(inst, got) then
                fail(c, "a clean error the calm run did not give, and the case does not expect", where)
            end
        else
            fail(c, "differs from the calm run", where)
        end
    end
end

local function run_storm(c, seed, calm)
    local inst = instance(c, seed, "storm")
    local plan_step, plan_tick = 0, 0
    -- Two instances in three close their subject: at one step, at a tick
    -- drawn from those that step has shown, the early ones more often.
    if #inst.steps > 0 and R(3) > 1 then
        plan_step = R(#inst.steps)
        plan_tick = R(R(c.ticks[plan_step] or 1))
    end
    -- One in three with a mint is echoed: at the first 1 to 8 ticks, or
    -- at every tick.
    local echoed = false
    if inst.mint and R(3) == 1 then
        echoed = {}
        local mint = inst.mint
        storm.set_echo(function()
            local id = mint()
            if id == nil then return end
            echoes = echoes + 1
            id = tostring(id)
            if echoed[id] then fail(c, "echoed, an ID that came out twice", "the echo's " .. brief(id)) end
            echoed[id] = true
        end, R(9) == 9 and math.huge or R(8))
    end
    local closed = false
    for i, st in ipairs(inst.steps) do
        storm.set_subject(inst.subject)
        local close_at = (i == plan_step and not closed) and plan_tick or 0
        if TRACE then
            TRACE:write(c.name, " / ", st.name, " (seed ", seed, ", close at tick ", close_at,
                echoed and ", echoed" or "", ")\n")
        end
        local closed_now, ticks, ok, r1, r2, r3, r4 = storm.call(close_at, st.fn)
        c.calls, total_calls = c.calls + 1, total_calls + 1
        if not closed_now and not echoed and ticks > (c.ticks[i] or 0) then c.ticks[i] = ticks end
        local got = outcome(st.like, ok, r1, r2, r3, r4)
        if echoed then
            echoed_calls = echoed_calls + 1
            if is_clean(ok, r1, r2) then echoed_errors = echoed_errors + 1 end
        end
        judge(c, inst, st, got, calm[i], closed_now and close_at, closed, ticks, echoed, ok, r1, r2)
        closed = closed or closed_now
    end
    storm.set_echo(nil)
    storm.set_subject(nil)
end

-- What the conductor does at every tick: one step of a case built afresh
-- from another seed: the case under test itself (its function called again
-- from inside it, with other arguments), one of its section or any (the
-- generators it makes are garbage at once, so their __gc runs in the
-- middle of later calls too).
local running = false -- the case under test

local function action(list)
    return function()
        local c, pick = running, R(3)
        if pick == 2 then
            repeat c = list[R(#list)] until c.section == running.section
        elseif pick == 3 then
            c = list[R(#list)]
        end
        local inst = instance(c, R(1000000), "nested")
        if #inst.steps > 0 then pcall(inst.steps[R(#inst.steps)].fn) end
    end
end

local function run_rounds(list, seconds, hooked)
    storm.set_action(action(list))
    local t0, round = os.clock(), 0
    repeat
        round = round + 1
        for idx, c in ipairs(list) do
            running = c
            local seed = SEED * 7919 + round * 1009 + idx
            run_storm(c, seed, run_calm(c, seed, hooked))
        end
    until round >= 2 and os.clock() - t0 >= seconds
    storm.set_action(nil)
    return round
end

---------------------------------------------------------------------------
-- The self-check: a generator written here with the very bug the storm is
-- for (checks that it is open, allocates, then mints from its state, which
-- closing wipes) must be caught, so that the mode can fail even once the
-- bindings have no such bug left.

local function self_check()
    local list = {}
    local mt = { __name = "storm.LeakyGenerator" }
    mt.__gc = function(g) g.open, g.n = false, -1000 end
    mt.__close = mt.__gc
    mt.__index = {
        next = function(g)
            if not g.open then error(CLOSED .. " storm.LeakyGenerator", 0) end
            local prefix = string.format("%s-", "id") -- allocates: a finalizer may close g here
            g.n = g.n + 1
            return prefix .. g.n
        end,
    }
    new_case(list, "self-check", function(h)
        local g = h.use(setmetatable({ open = true, n = 0 }, mt))
        h.step("next()", function() return g:next() end)
        h.step("next() again", function() return g:next() end)
    end)
    run_rounds(list, 0.2, false)
    return list[1]
end

---------------------------------------------------------------------------
-- TAP.

local t0 = os.clock()
local rounds = run_rounds(cases, SECONDS, true)
local elapsed = os.clock() - t0
local number = 0

local function tap(ok, name)
    number = number + 1
    print((ok and "ok " or "not ok ") .. number .. " - " .. LABEL .. ": " .. name)
end

for _, c in ipairs(cases) do
    local wrong = 0
    for _, why in ipairs(c.order) do wrong = wrong + c.failures[why].count end
    if c.broken then
        wrong = wrong + 1
        print("#   the case itself raised: " .. c.broken)
    end
    tap(wrong == 0, c.name .. " (" .. c.calls .. " calls" .. (wrong > 0 and (", " .. wrong .. " wrong") or "") .. ")")
    for _, why in ipairs(c.order) do
        local f = c.failures[why]
        print("#   " .. f.count .. "x " .. why .. "; first: " .. f.example)
    end
end

local uncovered = {}
for f, name in pairs(public) do
    if not covered[f] then uncovered[#uncovered + 1] = name end
end
table.sort(uncovered)
tap(#uncovered == 0, "every public function is called by a case"
    .. (#uncovered > 0 and (": not called: " .. table.concat(uncovered, ", ")) or ""))

local summary = string.format("# %s: %d calls under the storm (%d echoed: %d IDs of the echo, %d clean errors), "
    .. "%d rounds of %d cases, %.1f s", LABEL, total_calls, echoed_calls, echoes, echoed_errors, rounds, #cases, elapsed)
local leaky = self_check()
local caught = 0
for _, why in ipairs(leaky.order) do caught = caught + leaky.failures[why].count end
tap(caught > 0, "self-check: a generator that mints once closed is caught (" .. caught .. " of "
    .. leaky.calls .. " calls)")

print(summary)
