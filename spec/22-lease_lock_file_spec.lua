-- lease.lock_file (doc/leases.md): machine
-- id i held by an OS lock on byte i of a file, freed by the kernel when the
-- holder ends however it ends, never shared with a forked child; and
-- lease.lock_file_holders. Real processes (testfork) and real kill -9.
-- Under MINTID_MODULE=resty.mintid the generators are resty.mintid's.
local h = require "helper"
local mintid = require(h.module_name)
local lease = require "mintid.lease"

local function sleep(s) os.execute("sleep " .. s) end

-- A lock file path of its own for each test, removed afterwards.
local paths = {}
local function new_path()
    local p = os.tmpname()
    paths[#paths + 1] = p
    return p
end

local function holders(path, ids)
    return table.concat(assert(lease.lock_file_holders { path = path, machine_ids = ids }), ",")
end

describe("lease.lock_file", function()
    teardown(function()
        for _, p in ipairs(paths) do
            os.remove(p)
            os.remove(p .. ".layout")
        end
    end)

    describe("acquire, machine_id, renew, release", function()
        it("acquire gives the first free id of machine_ids; machine_id says it; renew is a no-op true", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 40, 45 } }
            assert.are.equal(nil, l:machine_id())
            assert.are.equal(40, l:acquire())
            assert.are.equal(40, l:machine_id())
            assert.are.equal(true, l:renew())
            assert.are.equal(40, l:acquire(), "acquire again: the id it holds")
            assert.are.equal("40", holders(p))
            l:release()
        end)

        it("the default machine_ids are 0..1023", function()
            local p = new_path()
            local l = lease.lock_file { path = p }
            assert.are.equal(0, l:acquire())
            l:release()
        end)

        it("creates a missing file", function()
            local p = new_path()
            os.remove(p)
            local l = lease.lock_file { path = p }
            assert.are.equal(0, l:acquire())
            assert.is_truthy(io.open(p, "rb"), "the lock file exists")
            l:release()
        end)

        it("two leases of one process on one file get different ids", function()
            local p = new_path()
            local a = lease.lock_file { path = p, machine_ids = { 1, 2 } }
            local b = lease.lock_file { path = p, machine_ids = { 1, 2 } }
            local c = lease.lock_file { path = p, machine_ids = { 1, 2 } }
            assert.are.equal(1, a:acquire())
            assert.are.equal(2, b:acquire())
            local id, msg = c:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. p .. ": every machine id in 1..2 is taken", msg)
            a:release()
            assert.are.equal(1, c:acquire(), "a released id is free again")
            b:release()
            c:release()
        end)

        it("another open and close of the file in this process keeps the locks", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 3, 3 } }
            assert.are.equal(3, l:acquire())
            local f = assert(io.open(p, "rb"))
            f:close()
            assert.are.equal("3", holders(p), "still held after io.open + close")
            assert.are.equal(nil, (lease.lock_file { path = p, machine_ids = { 3, 3 } }:acquire()))
            l:release()
        end)

        it("release frees the id; generators on the lease refuse from then on; renew says why", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 7, 7 } }
            local g = mintid.snowflake_generator { lease = l }
            assert.are.equal(7, l:acquire())
            local _, mid = h.snowflake_parts(assert(g:next()))
            assert.are.equal(7, mid)
            assert.are.equal(true, l:release())
            local id, msg = g:next()
            assert.are.equal(nil, id)
            assert.are.equal("snowflake: lease released", msg)
            assert.are.equal("", holders(p))
            local ok, why = l:renew()
            assert.are.equal(nil, ok)
            assert.are.equal("lock file " .. p .. ": lease released", why)
            assert.are.equal(nil, l:machine_id())
            assert.are.equal(7, l:acquire(), "acquired again")
            assert.are.equal(7, select(2, h.snowflake_parts(assert(g:next()))), "the generator follows")
            l:release()
        end)

        it("a new holder mints only ms above the wall clock read when it took the lock", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 9, 9 } }
            local before = os.time() * 1000
            l:acquire()
            -- A clock far behind: every ms it offers is at or below the floor.
            local g = mintid.snowflake_generator { lease = l, clock = function() return before - 5000 end }
            local id, msg = g:next()
            assert.are.equal(nil, id)
            assert.is_truthy(msg:match("^snowflake: waiting for the previous holder's last ms %(until ms %d+%)$"), msg)
            local floor = tonumber(msg:match("until ms (%d+)"))
            assert(floor >= before, "the floor " .. floor .. " is the wall ms at acquisition (>= " .. before .. ")")
            l:release()
        end)

        it("the lock outlives the lease object while a generator uses it", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 11, 11 } }
            l:acquire()
            local g = mintid.snowflake_generator { lease = l }
            l = nil -- luacheck: ignore 311
            collectgarbage()
            collectgarbage()
            assert.are.equal("11", holders(p), "still locked")
            assert.are.equal(11, select(2, h.snowflake_parts(assert(g:next()))))
        end)

        it("the lock outlives the lease object whatever the debug library does to the user values", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 12, 12 } }
            l:acquire()
            local g = mintid.snowflake_generator { lease = l }
            h.clear_user_values(l._fence)
            h.clear_user_values(g)
            l = nil -- luacheck: ignore 311
            collectgarbage()
            collectgarbage()
            assert.are.equal("12", holders(p), "still locked")
            assert.are.equal(12, select(2, h.snowflake_parts(assert(g:next()))))
        end)

        it("an unopenable path is nil, message naming the file", function()
            local p = "/nonexistent-dir-of-mintid/x.lock"
            local id, msg = lease.lock_file { path = p }:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. p .. ": cannot open: No such file or directory", msg)
        end)
    end)

    describe("l:start()", function()
        it("outside OpenResty: acquire at once", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 30, 30 } }
            assert.are.equal(30, l:start())
            assert.are.equal(30, l:machine_id())
            l:release()
        end)

        it("in OpenResty (a stand-in ngx): every id taken, a timer tries again each second, logging changes", function()
            local p = new_path()
            local holder = lease.lock_file { path = p, machine_ids = { 31, 31 } }
            holder:acquire()
            local logs, timers = {}, {}
            local saved = rawget(_G, "ngx")
            rawset(_G, "ngx", {
                ERR = "err", NOTICE = "notice",
                log = function(level, ...) logs[#logs + 1] = level .. ": " .. table.concat({ ... }) end,
                timer = { every = function(s, fn) timers[#timers + 1] = { s, fn }; return true end },
            })
            local l = lease.lock_file { path = p, machine_ids = { 31, 31 } }
            local ok, id, msg = pcall(l.start, l)
            rawset(_G, "ngx", saved)
            assert(ok, tostring(id))
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. p .. ": every machine id in 31..31 is taken", msg)
            assert.are.same({ "err: mintid lease: " .. msg .. "; retrying every second" }, logs)
            assert.are.equal(1, #timers)
            assert.are.equal(1, timers[1][1], "every second")
            local retry = timers[1][2]
            rawset(_G, "ngx", { ERR = "err", NOTICE = "notice",
                log = function(level, ...) logs[#logs + 1] = level .. ": " .. table.concat({ ... }) end })
            local ran, err = pcall(retry, false)
            assert(ran, tostring(err))
            assert.are.equal(1, #logs, "still taken: nothing more logged")
            holder:release()
            ran, err = pcall(retry, false)
            rawset(_G, "ngx", saved)
            assert(ran, tostring(err))
            assert.are.equal(31, l:machine_id())
            assert.are.equal("notice: mintid lease: " .. p .. ": machine id 31 acquired", logs[2])
            assert.are.equal(2, #logs)
            l:release()
            rawset(_G, "ngx", { ERR = "err", NOTICE = "notice", log = function() end })
            ran, err = pcall(retry, false)
            rawset(_G, "ngx", saved)
            assert(ran, tostring(err))
            assert.are.equal(nil, l:machine_id(), "released: the timer takes no id again")
        end)
    end)

    describe("lease.lock_file_holders", function()
        it("lists the ids locked by any process, within machine_ids; none for a missing file", function()
            local p = new_path()
            local a = lease.lock_file { path = p, machine_ids = { 5, 9 } }
            local b = lease.lock_file { path = p, machine_ids = { 5, 9 } }
            a:acquire()
            b:acquire()
            assert.are.equal("5,6", holders(p))
            assert.are.equal("6", holders(p, { 6, 9 }))
            a:release()
            b:release()
            os.remove(p)
            assert.are.same({}, lease.lock_file_holders { path = p })
        end)

        -- 2^32 ids: one query per lock and per gap, not one per id. Units of
        -- 10 ms (23 bits: 23 hours from an epoch an hour or two ago), since
        -- acquire waits out the unit of its floor.
        local L32 = { time_bits = 23, time_unit_ms = 10, machine_bits = 32, seq_bits = 8,
                      epoch = (math.floor(os.time() / 3600) - 1) * 3600000 }

        it("a layout of 32 machine bits: the held ids, ascending, in a walk of the locks", function()
            local p = new_path()
            local held = {}
            for i, id in ipairs { 4294967295, 7, 2147483648, 0, 8 } do
                held[i] = lease.lock_file { path = p, layout = L32, machine_ids = { id, id } }
                assert.are.equal(id, held[i]:acquire())
            end
            local t = os.clock()
            assert.are.same({ 0, 7, 8, 2147483648, 4294967295 }, assert(lease.lock_file_holders { path = p, layout = L32 }))
            assert.are.same({ 7, 8 }, assert(lease.lock_file_holders { path = p, layout = L32, machine_ids = { 1, 2^31 - 1 } }))
            assert(os.clock() - t < 0.5, "listed in " .. (os.clock() - t) .. " s of CPU")
        end)

        it("a range of 2^24 ids with one held is walked, not probed id by id", function()
            local p = new_path()
            local a = lease.lock_file { path = p, layout = L32, machine_ids = { 2^24 - 1, 2^24 - 1 } }
            assert.are.equal(2^24 - 1, a:acquire())
            local t = os.clock()
            assert.are.same({ 2^24 - 1 }, assert(lease.lock_file_holders { path = p, layout = L32,
                machine_ids = { 0, 2^24 - 1 } }))
            assert(os.clock() - t < 0.5, "listed in " .. (os.clock() - t) .. " s of CPU")
        end)

        it("reads a lock file it may only read: an operator without write permission", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 2, 2 } }
            assert.are.equal(2, l:acquire())
            assert(os.execute("chmod 0444 " .. p))
            -- as root, permissions hold only for another user
            local as = io.popen("id -u"):read("*l") == "0" and "setpriv --reuid=nobody --regid=nogroup --clear-groups "
                or ""
            local cmd = ("env LUA_PATH=%q LUA_CPATH=%q %s%s -e %q 2>&1"):format(package.path, package.cpath, as, h.lua_command,
                "local h, e = require('mintid.lease').lock_file_holders { path = '" .. p .. "' } "
                .. "print(h and table.concat(h, ',') or e)")
            local pipe = assert(io.popen(cmd))
            local out = pipe:read("*a")
            pipe:close()
            assert.are.equal("2\n", out)
            l:release()
        end)
    end)

    describe("fork()", function()
        it("a child never uses its parent's lease: no machine id, generators refuse, acquire takes another id", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 20, 21 } }
            local g = mintid.snowflake_generator { lease = l }
            assert.are.equal(20, l:acquire())
            local out = h.in_child(function()
                local id, msg = g:next()
                local before = tostring(l:machine_id()) .. "|" .. tostring(id) .. "|" .. tostring(msg)
                local got = l:acquire()
                local _, mid = h.snowflake_parts(assert(g:next()))
                return before .. "|" .. tostring(got) .. "|" .. mid
            end)
            assert.are.equal("nil|nil|snowflake: lease belongs to the parent process (forked)|21|21", out)
            assert.are.equal("20", holders(p), "the parent keeps 20; the child's 21 ended with it")
            assert.are.equal(20, select(2, h.snowflake_parts(assert(g:next()))))
            l:release()
        end)

        it("a child's release leaves the parent's lock", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 22, 22 } }
            l:acquire()
            h.in_child(function() return tostring(l:release()) end)
            assert.are.equal("22", holders(p))
            assert.are.equal(22, l:machine_id())
            l:release()
        end)

        it("a child still running does not keep its parent's id once the parent is gone", function()
            local testfork = require "testfork"
            local p = new_path()
            -- The holder is a child of this process; its own child (the
            -- grandchild) sleeps on while the holder exits without release.
            h.in_child(function()
                local l = lease.lock_file { path = p, machine_ids = { 23, 23 } }
                assert(l:acquire() == 23)
                if testfork.fork() == 0 then
                    sleep(3)
                    testfork.exit(0)
                end
                return "holder done"
            end)
            -- The grandchild closes its copy in its fork handler, which may
            -- run a moment after the holder went on: waited for, 1 s at most.
            local held = holders(p)
            for _ = 1, 20 do
                if held == "" then break end
                sleep(0.05)
                held = holders(p)
            end
            assert.are.equal("", held, "23 is free while the grandchild still runs (3 s)")
        end)
    end)

    describe("processes killed and replaced", function()
        -- N processes lease ids 0..N-1 and mint until told to stop; some
        -- are killed with SIGKILL; replacements must get exactly their ids;
        -- no ID is ever made twice across every process's output.
        local N, KILL = 4, 2

        it("kill -9 frees the ids, replacements take them, zero duplicate IDs", function()
            local testfork = require "testfork"
            local p = new_path()
            local dir = os.tmpname()
            os.remove(dir)
            assert(os.execute("mkdir " .. dir))
            local stop = dir .. "/stop"

            -- A child: acquire, write "id N", then batches of IDs until stop exists.
            local function spawn(name)
                local pid = testfork.fork()
                if pid ~= 0 then return pid end
                local ok = pcall(function()
                    local out = assert(io.open(dir .. "/" .. name, "wb"))
                    local l = lease.lock_file { path = p, machine_ids = { 0, N - 1 } }
                    local g = mintid.snowflake_generator { lease = l }
                    out:write("id ", tostring(assert(l:acquire())), "\n")
                    out:flush()
                    local deadline = os.time() + 20
                    while os.time() < deadline do
                        local batch = {}
                        for i = 1, 200 do batch[i] = tostring(assert(g:next())) end
                        out:write(table.concat(batch, "\n"), "\n")
                        out:flush()
                        local s = io.open(stop, "rb")
                        if s then s:close() break end
                    end
                    out:close()
                end)
                testfork.exit(ok and 0 or 1)
            end

            -- Until each of names has written its id (a loaded machine is slow to fork): 10 s at most.
            local function wait_ids(names)
                for _ = 1, 200 do
                    local all = true
                    for _, name in ipairs(names) do
                        local f = io.open(dir .. "/" .. name, "rb")
                        local line = f and f:read("*l")
                        if f then f:close() end
                        all = all and line ~= nil and line:match("^id %d+$") ~= nil
                    end
                    if all then return end
                    sleep(0.05)
                end
                error("not every process acquired an id within 10 s: " .. table.concat(names, ", "))
            end

            local pids, names = {}, {}
            for i = 1, N do
                pids[i] = spawn("p" .. i)
                names[i] = "p" .. i
            end
            wait_ids(names)
            sleep(0.2)
            local killed = {}
            for i = 1, KILL do
                os.execute("kill -9 " .. pids[i])
                assert.are.equal(nil, testfork.wait(pids[i]), "p" .. i .. " was killed")
                killed[#killed + 1] = i
            end
            local replacements, rnames = {}, {}
            for i = 1, KILL do
                replacements[i] = spawn("r" .. i)
                rnames[i] = "r" .. i
            end
            wait_ids(rnames)
            sleep(0.2)
            assert(io.open(stop, "wb")):close()
            for i = KILL + 1, N do assert.are.equal(0, testfork.wait(pids[i]), "p" .. i .. " exits 0") end
            for i = 1, KILL do assert.are.equal(0, testfork.wait(replacements[i]), "r" .. i .. " exits 0") end

            local seen, total, ids = {}, 0, {}
            local function collect(name)
                local f = assert(io.open(dir .. "/" .. name, "rb"))
                local id = tonumber(f:read("*l"):match("^id (%d+)$"))
                ids[name] = id
                -- Whole lines only: a killed process's last line may be cut
                -- short, even to digits alone (a shorter, other number).
                for line in f:read("*a"):gmatch("([^\n]*)\n") do
                    if line:match("^%d+$") then
                        assert(not seen[line], "ID " .. line .. " made twice (" .. tostring(seen[line]) .. ", " .. name .. ")")
                        local _, mid = h.snowflake_parts(line)
                        assert(mid == id, name .. " minted with machine id " .. mid .. ", its lease is " .. id)
                        seen[line] = name
                        total = total + 1
                    end
                end
                f:close()
                os.remove(dir .. "/" .. name)
            end
            for i = 1, N do collect("p" .. i) end
            for i = 1, KILL do collect("r" .. i) end
            os.remove(stop)
            os.remove(dir)

            local want, got = {}, {}
            for _, i in ipairs(killed) do want[#want + 1] = ids["p" .. i] end
            for i = 1, KILL do got[#got + 1] = ids["r" .. i] end
            table.sort(want)
            table.sort(got)
            assert.are.same(want, got, "the replacements hold the killed processes' ids")
            assert(total > 1000, "enough IDs to mean something: " .. total)
        end)
    end)

    -- The lease keeps its ids only while the file it locked is the one its
    -- path names: removed, replaced or given a second name, another
    -- process could make the file again and take the same ids.
    describe("a lock file removed, replaced or reached by another name", function()
        -- IDs from g for about ms milliseconds (all of them: it stops at
        -- its first refusal), and that refusal.
        local function mint_for(g, ms)
            local ids, stop = {}, mintid.snowflake_generator { machine_id = 0 }
            local t0 = h.snowflake_parts(assert(stop:next()))
            repeat
                local id, err = g:next()
                if not id then return ids, err end
                ids[#ids + 1] = id
            until h.snowflake_parts(assert(stop:next())) - t0 >= ms
            return ids
        end
        local function none_twice(...)
            local seen, n = {}, 0
            for _, list in ipairs { ... } do
                for _, id in ipairs(list) do
                    assert.are.equal(nil, seen[id], "ID " .. tostring(id) .. " minted twice")
                    seen[id] = true
                    n = n + 1
                end
            end
            return n
        end

        for _, removed in ipairs { "the lock file", "the lock file and its layout record" } do
            it(removed .. " removed while held: its holder stops, the new file's holder mints no ID of its", function()
                local p = new_path()
                local old = lease.lock_file { path = p, machine_ids = { 3, 3 } }
                assert.are.equal(3, old:acquire())
                local g_old = mintid.snowflake_generator { lease = old }
                assert(g_old:next())
                os.remove(p)
                if removed ~= "the lock file" then os.remove(p .. ".layout") end
                local new = lease.lock_file { path = p, machine_ids = { 3, 3 } }
                assert.are.equal(3, new:acquire(), "the new file shows none of the old one's locks")
                local g_new = mintid.snowflake_generator { lease = new }
                local old_ids, why = mint_for(g_old, 300)
                local new_ids = mint_for(g_new, 300)
                assert.are.equal("snowflake: lease lost: lock file " .. p
                    .. " was removed or replaced while held", why)
                assert.are.equal(nil, old:machine_id(), "the old holder holds no id")
                assert.are.equal("lost", old._fence:state())
                assert(#new_ids > 0, "the new holder minted")
                none_twice(old_ids, new_ids)
                new:release()
            end)
        end

        it("a new file's holder mints only past its making and one check of every old holder", function()
            local p = new_path()
            os.remove(p)
            local made = h.snowflake_parts(assert(mintid.snowflake_generator { machine_id = 0 }:next()))
            local l = lease.lock_file { path = p, machine_ids = { 0, 0 } }
            assert.are.equal(0, l:acquire())
            local id, msg = mintid.snowflake_generator { lease = l, clock = function() return made end }:next()
            assert.are.equal(nil, id)
            local floor = tonumber(msg:match("^snowflake: waiting for the previous holder's last ms %(until ms (%d+)%)$"))
            assert(floor and floor >= made + 100, "the floor " .. tostring(floor) .. " is 100 ms or more past the "
                .. "file's making (" .. made .. ")")
            l:release()
        end)

        it("renamed away while held: its holder stops", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 4, 4 } }
            assert.are.equal(4, l:acquire())
            local g = mintid.snowflake_generator { lease = l }
            assert(os.rename(p, p .. ".moved"))
            local _, why = mint_for(g, 300)
            os.rename(p .. ".moved", p)
            assert.are.equal("snowflake: lease lost: lock file " .. p
                .. " was removed or replaced while held", why)
        end)

        it("its layout record replaced while held: its holder stops before the new layout's holder mints", function()
            local p = new_path()
            local a = lease.lock_file { path = p, machine_ids = { 0, 3 } }
            assert.are.equal(0, a:acquire())
            local ga = mintid.snowflake_generator { lease = a }
            local before = assert(ga:next())
            os.remove(p .. ".layout")
            local b = lease.lock_file { path = p, layout = "sonyflake", machine_ids = { 0, 3 } }
            assert.are.equal(1, b:acquire(), "another layout's record written anew")
            local gb = mintid.snowflake_generator { lease = b }
            local a_ids, why = mint_for(ga, 300)
            local b_first = assert(gb:next())
            assert.are.equal("snowflake: lease lost: lock file " .. p
                .. " had its layout record removed or replaced", why)
            local last_a = h.snowflake_parts(a_ids[#a_ids] or before)
            local first_b = mintid.parse_snowflake(b_first, "sonyflake")
            assert(last_a < first_b, "the old layout's last ms " .. last_a .. " is below the new one's first "
                .. first_b)
            b:release()
        end)

        it("reached through a symlink: one layout record, so another layout refuses", function()
            local p = new_path()
            local link = p .. ".link"
            assert(os.execute("ln -sf " .. p .. " " .. link))
            local a = lease.lock_file { path = p, machine_ids = { 0, 3 } }
            assert.are.equal(0, a:acquire())
            local b = lease.lock_file { path = link, layout = "sonyflake", machine_ids = { 0, 3 } }
            local id, err = b:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. link .. " holds layout 42/1/10/12/0/time-machine-seq (" .. p
                .. ".layout), this lease's is 39/10/16/8/1409529600000/time-seq-machine: use another lock file "
                .. "for another layout", err)
            local c = lease.lock_file { path = link, machine_ids = { 0, 3 } }
            assert.are.equal(1, c:acquire(), "the same layout through the link: the next id of the same file")
            assert.are.equal("0,1", holders(link, { 0, 3 }))
            none_twice(mint_for(mintid.snowflake_generator { lease = a }, 20),
                mint_for(mintid.snowflake_generator { lease = c }, 20))
            a:release()
            c:release()
            os.remove(link)
        end)

        it("a second name (hard link): refused at acquire, and its holders stop once it is made", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 0, 3 } }
            assert.are.equal(0, l:acquire())
            local g = mintid.snowflake_generator { lease = l }
            assert(os.execute("ln " .. p .. " " .. p .. ".hard"))
            local _, why = mint_for(g, 300)
            assert.are.equal("snowflake: lease lost: lock file " .. p
                .. " has 2 names (hard links): a lock file must have one", why)
            local id, err = lease.lock_file { path = p .. ".hard", machine_ids = { 0, 3 } }:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. p .. ".hard has 2 names (hard links): a lock file must have one", err)
            os.remove(p .. ".hard")
        end)

        it("a held lease idle past its check still reads held, and mints, while its file stays", function()
            local p = new_path()
            local l = lease.lock_file { path = p, machine_ids = { 5, 5 } }
            assert.are.equal(5, l:acquire())
            sleep(0.25)
            assert.are.equal("held", l._fence:state())
            assert.are.equal(5, l:machine_id())
            -- across two checks of its file (every 100 ms), however few IDs
            -- a slow machine makes meanwhile: no refusal, and 200 ms apart
            local ids, err = mint_for(mintid.snowflake_generator { lease = l }, 250)
            assert.are.equal(nil, err, "no refusal while the file stays")
            local span = h.snowflake_parts(ids[#ids]) - h.snowflake_parts(ids[1])
            assert(span >= 200, "minted across two checks: the IDs span " .. span .. " ms")
            l:release()
        end)
    end)

    describe("its layout record", function()
        it("an empty one (a first lease between making it and writing its line): the line written, the id held", function()
            local p = new_path()
            assert(io.open(p .. ".layout", "w")):close()
            local l = lease.lock_file { path = p, machine_ids = { 0, 0 } }
            assert.are.equal(0, l:acquire())
            local f = assert(io.open(p .. ".layout"))
            assert.are.equal("42/1/10/12/0/time-machine-seq\n", f:read("*a"))
            f:close()
            l:release()
        end)

        it("a blank first line: one refusal naming the file and its content, and no write", function()
            local p = new_path()
            local f = assert(io.open(p .. ".layout", "w"))
            f:write("\n42/1/10/12/0/time-machine-seq\n")
            f:close()
            for _ = 1, 3 do
                local id, err = lease.lock_file { path = p }:acquire()
                assert.are.equal(nil, id)
                assert.are.equal("lock file " .. p .. " holds a layout record whose first line is blank (" .. p
                    .. ".layout), this lease's is 42/1/10/12/0/time-machine-seq: remove " .. p
                    .. ".layout once no process uses the lock file", err)
            end
            f = assert(io.open(p .. ".layout"))
            assert.are.equal("\n42/1/10/12/0/time-machine-seq\n", f:read("*a"), "the record as it was")
            f:close()
        end)
    end)

    describe("layouts", function()
        it("layout = L: ids in 0..2^M - 1 by default, a generator on it mints L", function()
            local p = new_path()
            local l = lease.lock_file { path = p, layout = "sonyflake", machine_ids = { 65530, 65535 } }
            assert.are.equal(65530, l:acquire())
            local g = mintid.snowflake_generator { lease = l }
            local id = assert(g:next())
            assert.are.equal(65530, select(2, mintid.parse_snowflake(id, "sonyflake")))
            l:release()
            h.raises(function() lease.lock_file { path = p, layout = "sonyflake", machine_ids = { 0, 65536 } } end,
                "bad argument #1 to 'lock_file' (machine_ids must be {lo, hi} with 0 <= lo <= hi <= 65535, got {0, 65536})")
            h.raises(function() lease.lock_file { path = p, layout = "snowflake" } end,
                "bad argument #1 to 'lock_file' (layout: unknown layout preset 'snowflake'")
        end)

        it("a generator on the lease takes its layout; another layout or epoch raises naming both", function()
            local p = new_path()
            local l = lease.lock_file { path = p, epoch = 1288834974657 }
            assert.is_truthy(mintid.snowflake_generator { lease = l, epoch = 1288834974657 }, "an equal epoch")
            h.raises(function() mintid.snowflake_generator { lease = l, epoch = 0 } end, "bad argument #1",
                "snowflake: lease layout 42/1/10/12/1288834974657/time-machine-seq, not "
                .. "42/1/10/12/0/time-machine-seq")
            -- a generator with no layout of its own takes the lease's
            local l2 = lease.lock_file { path = new_path(), layout = "discord" }
            assert.are.equal("discord", l2._fence:layout().name)
        end)

        it("one lock file, one layout: a lease of another layout refuses to acquire, naming both", function()
            local p = new_path()
            local a = lease.lock_file { path = p, machine_ids = { 0, 3 } }
            assert.are.equal(0, a:acquire())
            local b = lease.lock_file { path = p, layout = "sonyflake", machine_ids = { 0, 3 } }
            local id, err = b:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. p .. " holds layout 42/1/10/12/0/time-machine-seq (" .. p .. ".layout), "
                .. "this lease's is 39/10/16/8/1409529600000/time-seq-machine: use another lock file for another "
                .. "layout", err)
            local c = lease.lock_file { path = p, epoch = 1 }
            assert.are.equal(nil, (c:acquire()), "another epoch is another layout")
            assert.are.equal(1, lease.lock_file { path = p, machine_ids = { 0, 3 } }:acquire(), "the same layout")
            a:release()
        end)

        it("a 16-bit range nearly full: the last free id is found", function()
            local p = new_path()
            local held = {}
            for i = 1, 3 do
                held[i] = lease.lock_file { path = p, layout = "sonyflake", machine_ids = { 65533, 65535 } }
                assert.are.equal(65532 + i, held[i]:acquire())
            end
            local l = lease.lock_file { path = p, layout = "sonyflake" }
            assert.are.equal(0, l:acquire())
            held[2]:release()
            local m = lease.lock_file { path = p, layout = "sonyflake", machine_ids = { 65533, 65535 } }
            assert.are.equal(65534, m:acquire())
        end)
    end)

    describe("options", function()
        it("path is required, a non-empty string", function()
            h.raises(function() lease.lock_file {} end,
                "bad argument #1 to 'lock_file' (path must be a non-empty string, got nil)")
            h.raises(function() lease.lock_file { path = "" } end,
                "bad argument #1 to 'lock_file' (path must be a non-empty string, got \"\")")
        end)

        it("a path holding a zero byte raises in the constructor, naming the option", function()
            h.raises(function() lease.lock_file { path = "a\0b" } end,
                "bad argument #1 to 'lock_file' (path must hold no zero byte)")
            h.raises(function() lease.lock_file_holders { path = "a\0b" } end,
                "bad argument #1 to 'lock_file_holders' (path must hold no zero byte)")
        end)

        it("machine_ids must be {lo, hi} of integers with 0 <= lo <= hi <= 1023", function()
            h.raises(function() lease.lock_file { path = "x", machine_ids = 3 } end,
                "bad argument #1 to 'lock_file' (machine_ids must be a table {lo, hi}, got number)")
            h.raises(function() lease.lock_file { path = "x", machine_ids = { 1 } } end,
                "bad argument #1 to 'lock_file' (machine_ids must be {lo, hi} of integers, got {1, nil})")
            h.raises(function() lease.lock_file { path = "x", machine_ids = { 5, 2 } } end,
                "bad argument #1 to 'lock_file' (machine_ids must be {lo, hi} with 0 <= lo <= hi <= 1023, got {5, 2})")
            h.raises(function() lease.lock_file { path = "x", machine_ids = { 0, 1024 } } end,
                "(machine_ids must be {lo, hi} with 0 <= lo <= hi <= 1023, got {0, 1024})")
        end)

        it("an unknown option raises, naming it; so does a table that is not one", function()
            h.raises(function() lease.lock_file { path = "x", ttl = 5 } end,
                "bad argument #1 to 'lock_file' (unknown option 'ttl')")
            h.raises(function() lease.lock_file("x") end,
                "bad argument #1 to 'lock_file' (options must be a table, got string)")
            h.raises(function() lease.lock_file_holders { path = "x", machine_ids = { 2, 1 } } end,
                "bad argument #1 to 'lock_file_holders' (machine_ids must be")
        end)
    end)
end)
