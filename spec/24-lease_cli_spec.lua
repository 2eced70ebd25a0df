-- `mintid lease` (bin/mintid, doc/fleet.md "For operators"), run as a
-- subprocess like spec/12-cli_spec.lua: who holds which machine id, in a
-- Redis namespace (a redis-server this spec starts on 127.0.0.1 and stops,
-- when redis-server, redis-cli and this Lua's redis-lua are installed) or
-- in a lock file.
local h = require "helper"
local lease = require "mintid.lease"

local run, fails_to = h.cli_run, h.cli_fails_to

local function fails(status, args, ...)
    return fails_to(nil, status, args, nil, ...)
end

local function lines(s)
    local t = {}
    for line in s:gmatch("([^\n]*)\n") do t[#t + 1] = line end
    return t
end

local function sh(cmd)
    local ok = os.execute(cmd .. " >/dev/null 2>&1")
    return ok == true or ok == 0
end

describe("mintid lease", function()
    describe("usage", function()
        local cases = {
            { {}, "lease: give one of --redis HOST:PORT and --lock-file PATH" },
            { { "--redis", "127.0.0.1:1", "--lock-file", "x" }, "lease: give one of --redis HOST:PORT and --lock-file PATH" },
            { { "--redis", "127.0.0.1" , "--namespace", "n" }, "--redis wants HOST:PORT, got '127.0.0.1'" },
            { { "--redis", "127.0.0.1:1" }, "lease: --redis needs --namespace NS" },
            { { "--redis", "127.0.0.1:1", "--namespace", "a b" },
                "lease: namespace must be 1..64 letters, digits, '_', '.' or '-'" },
            { { "--lock-file", "x", "--namespace", "n" }, "lease: --namespace goes with --redis" },
            { { "--lock-file", "x", "--ids", "5-3" }, "--ids wants LO-HI within 0-1023, got '5-3'" },
            { { "--lock-file", "x", "--ids", "0-1024" }, "--ids wants LO-HI within 0-1023, got '0-1024'" },
            { { "--lock-file", "" }, "lease: path must be a non-empty string, got \"\"" },
        }
        for _, case in ipairs(cases) do
            it("exit 2: " .. case[2], function()
                local args = { "lease" }
                for _, a in ipairs(case[1]) do args[#args + 1] = a end
                local out = fails(2, args, case[2] .. " (see mintid --help)")
                assert.are.equal("", out)
            end)
        end

        it("--help names the subcommand", function()
            local out, _, status = run { "--help" }
            assert.are.equal(0, status)
            assert.is_truthy(out:find("mintid lease --redis HOST:PORT --namespace NS [--ids LO-HI]", 1, true))
            assert.is_truthy(out:find("mintid lease --lock-file PATH [--ids LO-HI]", 1, true))
        end)
    end)

    describe("--redis", function()
        local have_redis = sh("command -v redis-server") and sh("command -v redis-cli") and pcall(require, "redis")
        local dir, port

        setup(function()
            if not have_redis then return end
            dir = os.tmpname()
            os.remove(dir)
            assert(sh("mkdir " .. dir))
            local p = assert(io.popen("python3 -c 'import socket; s = socket.socket(); "
                .. [[s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])']]))
            port = assert(tonumber(p:read("*l")))
            p:close()
            assert(sh(("redis-server --bind 127.0.0.1 --port %d --save '' --appendonly no --daemonize yes "
                .. "--dir %s --pidfile %s/redis.pid --logfile %s/redis.log"):format(port, dir, dir, dir)))
            for _ = 1, 100 do
                if sh(("redis-cli -p %d ping"):format(port)) then break end
                os.execute("sleep 0.1")
            end
        end)

        teardown(function()
            if not dir then return end
            sh(("redis-cli -p %d shutdown nosave"):format(port))
            sh(("[ -f %s/redis.pid ] && kill $(cat %s/redis.pid)"):format(dir, dir))
            sh("rm -rf " .. dir)
        end)

        it("lists each id held: id, ms to expiry, floor ms, floor as ISO 8601", function()
            if not have_redis then return pending("needs redis-server, redis-cli and redis-lua for this Lua") end
            local redis = require "redis"
            local function connect() return redis.connect { host = "127.0.0.1", port = port, timeout = 1 } end
            local quiet = function() end
            local a = lease.redis { connect = connect, namespace = "cli", machine_ids = { 7, 8 }, wait = false, log = quiet }
            local b = lease.redis { connect = connect, namespace = "cli", machine_ids = { 7, 8 }, wait = false, log = quiet }
            local ia, ib = assert(a:acquire()), assert(b:acquire())
            local out, err, status = run { "lease", "--redis", "127.0.0.1:" .. port, "--namespace", "cli" }
            assert.are.equal("", err)
            assert.are.equal(0, status)
            local got = lines(out)
            assert.are.equal(2, #got, out)
            for i, id in ipairs { math.min(ia, ib), math.max(ia, ib) } do
                local lid, left, floor, iso = got[i]:match("^(%d+) (%d+) (%d+) (%d%d%d%d%-%d%d%-%d%dT[%d:.]+Z)$")
                assert.are.equal(tostring(id), lid, got[i])
                assert.is_true(tonumber(left) > 0 and tonumber(left) <= 15000, got[i])
                assert.is_true(tonumber(floor) > 0, got[i])
                assert.is_truthy(iso, got[i])
            end
            assert.is_true(a:release())
            out = run { "lease", "--redis", "127.0.0.1:" .. port, "--namespace", "cli", "--ids", "0-1023" }
            assert.are.same({ tostring(ib) .. " " }, { (lines(out)[1] or ""):match("^%d+ ") })
            assert.are.equal(1, #lines(out))
        end)

        -- The ids come from the namespace's floor hash (every id ever
        -- claimed), not from 2^32 probes: seconds, not hours (a bound of 60 s).
        it("32 machine bits: lists the ids held at once, --ids limiting them", function()
            if not have_redis then return pending("needs redis-server, redis-cli and redis-lua for this Lua") end
            local redis = require "redis"
            local function connect() return redis.connect { host = "127.0.0.1", port = port, timeout = 1 } end
            local layout = "21/1/32/10/0/time-machine-seq"
            local leases = {}
            for _, id in ipairs { 3, 4294967295 } do
                local l = lease.redis { connect = connect, namespace = "wide", machine_ids = { id, id }, wait = false,
                                        layout = { time_bits = 21, machine_bits = 32, seq_bits = 10 },
                                        log = function() end }
                assert.are.equal(id, l:acquire())
                leases[#leases + 1] = l
            end
            local function listed(extra)
                local args = { "lease", "--redis", "127.0.0.1:" .. port, "--namespace", "wide", "--layout", layout }
                for _, a in ipairs(extra) do args[#args + 1] = a end
                local p = assert(io.popen("timeout 60 " .. h.cli_command(args) .. ' 2>&1; echo "exit:$?"'))
                local out = p:read("*a")
                p:close()
                local ids = {}
                for id in out:gmatch("(%d+) %d+ %d+ [^\n]*\n") do ids[#ids + 1] = id end
                return ids, out:match("exit:(%d+)\n$"), out
            end
            local ids, status, out = listed {}
            assert.are.equal("0", status, out)
            assert.are.same({ "3", "4294967295" }, ids)
            ids, status, out = listed { "--ids", "4-4294967295" }
            assert.are.equal("0", status, out)
            assert.are.same({ "4294967295" }, ids)
            for _, l in ipairs(leases) do assert(l:release()) end
        end)

        it("exit 1 with a clear message for junk in the floor hash, never a traceback", function()
            if not have_redis then return pending("needs redis-server, redis-cli and redis-lua for this Lua") end
            assert(sh(("redis-cli -p %d SET 'mintid:{junk}:m:3' x"):format(port)))
            assert(sh(("redis-cli -p %d HSET 'mintid:{junk}:floor' 3 abc"):format(port)))
            fails(1, { "lease", "--redis", "127.0.0.1:" .. port, "--namespace", "junk" },
                "mintid: lease: unexpected reply to a listing: the floor of machine id 3 is not Unix ms: abc")
        end)

        it("exit 1 with redis-cli's message when Redis is unreachable", function()
            if not sh("command -v redis-cli") then return pending("needs redis-cli") end
            fails(1, { "lease", "--redis", "127.0.0.1:1", "--namespace", "cli" },
                "lease: redis-cli: Could not connect to Redis at 127.0.0.1:1")
        end)
    end)

    describe("--lock-file", function()
        it("--layout: the layout's whole range by default, --ids checked against it", function()
            local path = os.tmpname()
            local l = lease.lock_file { path = path, layout = "sonyflake", machine_ids = { 65530, 65535 } }
            assert.are.equal(65530, l:acquire())
            local out, err, status = run { "lease", "--lock-file", path, "--layout", "sonyflake" }
            assert.are.equal("", err)
            assert.are.equal(0, status)
            assert.are.same({ "65530" }, lines(out))
            local _
            _, err, status = run { "lease", "--lock-file", path, "--layout", "sonyflake", "--ids", "0-65536" }
            assert.are.equal(2, status)
            assert.is_truthy(err:find("--ids wants LO-HI within 0-65535, got '0-65536'", 1, true), err)
            _, err, status = run { "lease", "--lock-file", path, "--layout", "nope" }
            assert.are.equal(2, status)
            assert.is_truthy(err:find("--layout: unknown layout preset 'nope'", 1, true), err)
            l:release()
            os.remove(path)
            os.remove(path .. ".layout")
        end)

        it("lists the ids some process holds in the file", function()
            if not lease.lock_file then return pending("lease.lock_file is not there yet") end
            local path = os.tmpname()
            local l = lease.lock_file { path = path, machine_ids = { 40, 50 } }
            local id = assert(l:acquire())
            local out, err, status = run { "lease", "--lock-file", path, "--ids", "40-50" }
            assert.are.equal("", err)
            assert.are.equal(0, status)
            assert.are.same({ tostring(id) }, lines(out))
            l:release()
            os.remove(path)
            os.remove(path .. ".layout")
        end)
    end)
end)
