-- The finalizer storm: all of its machinery, in this one file.
--
-- While a call under test runs, every allocation runs a whole garbage
-- collection cycle (pause 0, and a step with no work limit), and so the
-- finalizer of a harness object: the conductor. Each time it runs it
-- counts a tick, closes the object the call uses when the plan says so
-- (at one chosen tick), runs the storm's action (other mintid calls) and
-- re-arms itself, a new object with the same finalizer, so the storm
-- never ends. Lua code that the harness lends a call (a clock or random
-- hook, a key's __tostring, an options table's __index) calls poke(),
-- which allocates, so that a finalizer runs there too. With an echo set,
-- the conductor also mints from the object in use at its first ticks.
--
-- The conductor runs in every Lua state that loads this file; outside a
-- call under test it only re-arms.
local storm = {}

local S = {
    inflight = false, -- a call under test is running
    subject = false,  -- the object it uses, which the conductor may close
    close_at = 0,     -- the tick at which to close it (0: never)
    tick = 0,         -- conductor runs since the call began
    closed = false,   -- the conductor closed the subject during the call
    action = false,   -- run at every tick: calls of other mintid functions
    echo = false,     -- run at the first echo_ticks ticks: a mint from the subject
    echo_ticks = 0,
    echoing = false,  -- the echo is running
    sink = false,     -- what poke allocates, kept so that no JIT drops it
}

---------------------------------------------------------------------------
-- A deterministic generator of integers, the same on every Lua (Park and
-- Miller: every product stays below 2^53, exact in a double).

function storm.prng(seed)
    local x = seed % 2147483646 + 1
    return function(n)
        x = x * 16807 % 2147483647
        return x % n + 1
    end
end

---------------------------------------------------------------------------
-- Finalizers. Lua 5.1 and LuaJIT run __gc only on userdata (newproxy);
-- 5.2 and later on tables.

local newproxy = newproxy

local function finalized(fn)
    if newproxy then
        local p = newproxy(true)
        getmetatable(p).__gc = fn
    else
        setmetatable({}, { __gc = fn })
    end
end

-- Closes g as a user would, through its metatable: __close or __gc.
local function close(g, which)
    local mt = getmetatable(g)
    local f = type(mt) == "table" and (mt[which] or mt.__gc)
    if f then pcall(f, g) end
end

local function conduct()
    if S.inflight then
        S.tick = S.tick + 1
        if S.tick == S.close_at and S.subject then
            close(S.subject, S.tick % 2 == 0 and "__close" or "__gc")
            S.closed = true
        end
        -- An error in a finalizer would propagate into the call on 5.1 and
        -- LuaJIT (a warning on 5.4): the action is never let raise.
        if S.action then pcall(S.action) end
        -- Not inside the echo itself (5.1 and LuaJIT run finalizers from
        -- a finalizer): one mint at a time, each tick of the call.
        if S.echo and S.tick <= S.echo_ticks and not S.echoing then
            S.echoing = true
            pcall(S.echo)
            S.echoing = false
        end
    end
    finalized(conduct)
end
finalized(conduct)

---------------------------------------------------------------------------
-- The collector's pace: a whole cycle at every allocation, or Lua's own.

local PUC54 = _VERSION == "Lua 5.4" and not rawget(_G, "jit")
-- 5.5 sets the pace through "param" only; its own pace, read before any
-- change, is the calm one.
local GC55 = _VERSION == "Lua 5.5" and {
    pause = collectgarbage("param", "pause"),
    stepmul = collectgarbage("param", "stepmul"),
    stepsize = collectgarbage("param", "stepsize"),
}

-- STORM_GC=lua leaves the pace to Lua: under HARDMEMTESTS (spec/testmode)
-- every allocation is a whole collection already, and there 5.5.0's own
-- checks fail (getgclist) when a step is a whole cycle too, mintid or not.
local LUA_PACE = os.getenv("STORM_GC") == "lua"

local function gc_pace(pause, stepmul, stepsize_log2)
    if LUA_PACE then return end
    if GC55 then
        -- (its parameters pace the incremental mode only)
        collectgarbage("incremental")
        collectgarbage("param", "pause", pause)
        collectgarbage("param", "stepmul", stepmul)
        return
    end
    collectgarbage("setpause", pause)
    collectgarbage("setstepmul", stepmul)
    if PUC54 then collectgarbage("incremental", 0, 0, stepsize_log2) end
end

local function gc_storm()
    -- A step with no work limit: a step size of 2^40 bytes on 5.4, a
    -- stepmul of 0 on 5.1, LuaJIT and 5.5.
    gc_pace(0, PUC54 and 1000 or 0, 40)
    -- The pause applies from the end of a cycle on: end this one now.
    collectgarbage("step", 0)
end

local function gc_calm()
    if GC55 then return gc_pace(GC55.pause, GC55.stepmul) end
    gc_pace(200, PUC54 and 100 or 200, 13)
end

---------------------------------------------------------------------------
-- The interface.

--- Allocates, so that a finalizer runs here when a call is under test.
function storm.poke()
    if S.inflight then S.sink = {} end
end

--- fn is run by the conductor at every tick of a call under test.
function storm.set_action(fn)
    S.action = fn
end

--- fn (false: none) is run by the conductor at each of the first `ticks`
--- ticks of a call under test (math.huge: every tick, so that a call that
--- makes its ID again whenever a finalizer used its object never ends):
--- it mints from the object the call uses.
function storm.set_echo(fn, ticks)
    S.echo, S.echo_ticks = fn or false, ticks or 0
end

--- The object a call under test uses, which the plan may close (also set
--- in the middle of a call, by a step that makes it).
function storm.set_subject(g)
    S.subject = g or false
end

-- The call ends where fn returns, inside the pcall: Lua 5.1's lua_pcall
-- steps the collector once its function has returned, and a close there,
-- after the call under test gave its result, is none of that call's.
local current = false
local function run_current()
    local r1, r2, r3, r4 = current()
    S.inflight = false
    return r1, r2, r3, r4
end

--- fn() as storm.call runs it, with no storm: the calm run (so that an
--- error names the same caller in both runs). Returns pcall's results.
function storm.calm(fn)
    current = fn
    local ok, r1, r2, r3, r4 = pcall(run_current)
    current = false
    return ok, r1, r2, r3, r4
end

--- fn() under the storm; the conductor closes the subject at tick close_at
--- (0: never). Returns whether it did, the ticks counted, then pcall's
--- results (at most four values: nothing is allocated between the call's
--- return and the end of the storm, which a table to hold them would do).
function storm.call(close_at, fn)
    S.close_at, S.tick, S.closed = close_at, 0, false
    current = fn
    gc_storm()
    S.inflight = true
    local ok, r1, r2, r3, r4 = pcall(run_current)
    S.inflight = false
    current = false
    gc_calm()
    S.sink = false
    return S.closed, S.tick, ok, r1, r2, r3, r4
end

return storm
