-- The command-line tool bin/mintid (doc/guide.md "Command line"), run as a
-- subprocess (helper.lua's cli_run) by the Lua running this suite.
local h = require "helper"
-- os.date takes a 64-bit time_t: 2^40 s is in the year 36812, not wrapped
local WIDE_TIME_T = pcall(os.date, "!%Y", 2 ^ 40) and os.date("!%Y", 2 ^ 40) == "36812"
local mintid = require "mintid"

local SECRET = "0123456789abcdef0123"
local run = h.cli_run

local function lines(s)
    local t = {}
    for line in s:gmatch("([^\n]*)\n") do t[#t + 1] = line end
    return t
end

--- Runs the command and expects success with nothing on stderr; returns the lines.
local function ok_lines(args, env)
    local out, err, status = run(args, env)
    assert.are.equal("", err, table.concat(args, " "))
    assert.are.equal(0, status, table.concat(args, " "))
    return lines(out)
end

local fails_to = h.cli_fails_to

local function fails(status, args, env, ...)
    return fails_to(nil, status, args, env, ...)
end

--- The fields of `mintid inspect` output for one ID: { field = value }.
local function fields_of(block)
    local f = {}
    for name, value in block:gmatch("\n  ([%w_]+): +([^\n]*)") do f[name] = value end
    f.id = block:match("^([^\n]*)")
    return f
end

--- Runs `mintid inspect ...` and returns the fields of each ID: a line that
-- does not start with a space opens the block of the next ID.
local function inspect(args)
    local blocks = {}
    for _, line in ipairs(ok_lines(args)) do
        if line:sub(1, 1) ~= " " then
            blocks[#blocks + 1] = line
        else
            blocks[#blocks] = blocks[#blocks] .. "\n" .. line
        end
    end
    for i, b in ipairs(blocks) do blocks[i] = fields_of(b) end
    return blocks
end

--- A flat JSON object of strings and integers as { field = text }.
local function json_fields(line)
    assert.is_truthy(line:match("^{.*}$"), "not a JSON object: " .. line)
    local f = {}
    for name, value in line:gmatch('"([%w_]+)":("?[^",}]*"?)') do
        f[name] = value:match('^"(.*)"$') or assert(value:match("^%-?%d+$"), name .. ": " .. value)
    end
    return f
end

local function sh(cmd)
    local ok = os.execute(cmd)
    return ok == true or ok == 0
end

local read_file = h.read_file

-- `mintid snowflake` keeps its lock files in XDG_RUNTIME_DIR: a folder of
-- this suite's, removed at its end.
local sandbox

describe("mintid command", function()
    setup(function()
        sandbox = os.tmpname()
        os.remove(sandbox)
        assert(sh("mkdir " .. sandbox))
        h.cli_env.XDG_RUNTIME_DIR = sandbox .. "/run"
    end)

    teardown(function()
        h.cli_env.XDG_RUNTIME_DIR = nil
        sh("rm -rf " .. sandbox)
    end)

    describe("help and usage", function()
        it("-h and --help print the usage on stdout and exit 0", function()
            for _, flag in ipairs({ "-h", "--help" }) do
                local out = table.concat(ok_lines({ flag }), "\n")
                assert.is_truthy(out:find("^usage: mintid"), flag)
                for _, command in ipairs({ "ulid", "uuid7", "uuid4", "uuid1", "uuid6", "uuid3", "uuid5", "ksuid",
                    "objectid", "xid", "typeid", "nanoid", "snowflake", "relative", "convert", "inspect", "MINTID_SECRET", "--json",
                    "--epoch", "--to", "--prefix", "--version" }) do
                    assert.is_truthy(out:find(command, 1, true), flag .. " mentions " .. command)
                end
            end
            assert.is_truthy(table.concat(ok_lines({ "inspect", "--help" }), "\n"):find("^usage: mintid"))
        end)

        it("--version and version print 'mintid ' and the module's version on stdout, exit 0", function()
            for _, args in ipairs({ { "--version" }, { "version" } }) do
                assert.are.same({ "mintid " .. mintid._VERSION }, ok_lines(args))
            end
            assert.is_truthy(mintid._VERSION:match("^%d+%.%d+%.%d+"), mintid._VERSION)
            fails(2, { "version", "extra" }, nil, "mintid: version takes no argument, got 'extra' (see mintid --help)")
            fails(2, { "version", "--json" }, nil, "mintid: unknown option '--json' for 'version' (see mintid --help)")
            fails_to(">/dev/full", 1, { "--version" }, nil, "mintid: cannot write to stdout")
        end)

        it("doc/mintid.1 is the man page tools/gen_man.lua makes of today's --help and --version", function()
            local help = table.concat(ok_lines({ "--help" }), "\n")
            local page = dofile("tools/gen_man.lua")(help, ok_lines({ "--version" })[1])
            assert.are.equal(page, read_file("doc/mintid.1"), "doc/mintid.1 is stale: run make man")
            local title = '.TH MINTID 1 "" "mintid ' .. mintid._VERSION:gsub("%-", "\\-") .. '"'
            assert.are.equal(title, page:sub(1, #title), "the title line names the version")
            assert.is_truthy(page:find("\n.SH NAME\nmintid \\- ", 1, true), "the NAME line man -k reads")
            -- groff reads it without a warning; troff runs without the
            -- sanitizer stage's preloaded libasan, which reports troff's own
            -- C++ allocations
            local p = assert(io.popen('env -u LD_PRELOAD groff -man -Tutf8 -ww -z doc/mintid.1 2>&1; echo "exit:$?"'))
            local said = p:read("*a")
            p:close()
            assert.are.equal("exit:0\n", said, "groff's warnings")
        end)

        it("gen_man.lua refuses a help line it cannot place, naming it", function()
            local render = dofile("tools/gen_man.lua")
            local head = "usage: mintid COMMAND\n\nMint IDs: every kind.\n\nCommands:\n"
            for text, want in pairs({
                [head .. "  mintid a    b\n     stray\n"] =
                    "gen_man.lua: help line 7: indented neither 8 nor as the description above:      stray",
                [head .. "Exit status: 0.\n  mintid a\n"] =
                    "gen_man.lua: help line 6: text at column 0 in a section of items: Exit status: 0.",
                ["mintid COMMAND\n"] = "gen_man.lua: help line 1: want 'usage: SYNOPSIS': mintid COMMAND",
            }) do
                local ok, err = pcall(render, text, "mintid 1.0.0")
                assert.are.same({ false, want }, { ok, err })
            end
        end)

        it("no command prints the usage on stderr and exits 2", function()
            local out, err, status = run({})
            assert.are.equal("", out)
            assert.is_truthy(err:find("^usage: mintid"))
            assert.are.equal(2, status)
        end)

        it("an unknown command or option names itself and exits 2", function()
            fails(2, { "frob" }, nil, "unknown command 'frob'")
            fails(2, { "--frob" }, nil, "unknown option '--frob'")
            fails(2, { "ulid", "--frob" }, nil, "unknown option '--frob'")
            fails(2, { "inspect", "-x", "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil, "unknown option '-x'")
            -- options belong to their commands
            fails(2, { "ulid", "--size", "3" }, nil, "unknown option '--size'")
            fails(2, { "uuid4", "--machine-id", "3" }, nil, "unknown option '--machine-id'")
        end)

        it("bad option values and missing arguments are usage errors (exit 2)", function()
            fails(2, { "ulid", "-n", "0" }, nil, "-n wants an integer >= 1, got '0'")
            fails(2, { "ulid", "-n", "x" }, nil, "got 'x'")
            fails(2, { "ulid", "-n" }, nil, "option '-n' needs a value")
            fails(2, { "ulid", "extra" }, nil, "takes no argument")
            fails(2, { "convert" }, nil, "no ID given")
            fails(2, { "inspect", "--kind", "guid", "x" }, nil, "--kind wants", "'guid'")
            fails(2, { "snowflake", "--machine-id", "1024" }, nil, "machine_id must be 0..1023, got 1024")
            fails(2, { "nanoid", "--alphabet", "aa" }, nil, "alphabet")
        end)

        -- Every option is --NAME VALUE or --NAME=VALUE; -n also has its short
        -- forms -n N and -nN.
        it("--n is -n, like every option's --NAME form", function()
            for _, args in ipairs({ { "ulid", "--n", "3" }, { "ulid", "--n=3" }, { "ulid", "-n", "3" }, { "ulid", "-n3" } }) do
                assert.are.equal(3, #ok_lines(args), table.concat(args, " "))
            end
            fails(2, { "ulid", "--n", "x" }, nil, "-n wants an integer >= 1, got 'x'")
            fails(2, { "ulid", "--n" }, nil, "option '--n' needs a value")
            fails(2, { "uuid3", "--n", "3", "dns", "a" }, nil, "unknown option '--n' for 'uuid3'")
            fails(2, { "ulid", "-size", "3" }, nil, "unknown option '-size' for 'ulid'")
            fails(2, { "inspect", "--json=yes", "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil, "option '--json' takes no value")
        end)
    end)

    describe("minting", function()
        it("ulid, uuid7: -n N monotonic IDs, one per line", function()
            for _, args in ipairs({ { "ulid", "-n", "50" }, { "ulid", "-n50" }, { "ulid", "--n=50" } }) do
                local ids = ok_lines(args)
                assert.are.equal(50, #ids)
                for i, id in ipairs(ids) do
                    assert.is_truthy(id:match(h.ULID_PATTERN), id)
                    if i > 1 then assert.is_true(ids[i - 1] < id) end
                end
            end
            local ids = ok_lines({ "uuid7", "-n", "20" })
            assert.are.equal(20, #ids)
            for i, id in ipairs(ids) do
                assert.are.equal(7, assert(mintid.parse_uuid(id)):version())
                if i > 1 then assert.is_true(ids[i - 1] < id) end
            end
            assert.are.equal(1, #ok_lines({ "ulid" }))
        end)

        it("uuid4: version 4 IDs", function()
            local ids = ok_lines({ "uuid4", "-n", "5" })
            assert.are.equal(5, #ids)
            for _, id in ipairs(ids) do
                assert.is_truthy(id:match(h.UUID_PATTERN), id)
                assert.are.equal(4, assert(mintid.parse_uuid(id)):version())
            end
        end)

        it("uuid1, uuid6: -n N monotonic IDs of that version (v6 in text order)", function()
            for _, version in ipairs({ 1, 6 }) do
                local ids = ok_lines({ "uuid" .. version, "-n", "30" })
                assert.are.equal(30, #ids)
                local v6 = {}
                for i, id in ipairs(ids) do
                    assert.is_truthy(id:match(h.UUID_PATTERN), id)
                    local v = assert(mintid.parse_uuid(id))
                    assert.are.equal(version, v:version(), id)
                    assert.are.equal("rfc9562", v:variant(), id)
                    assert.is_true(math.abs(v:time() - os.time() * 1000) < 120000, id)
                    -- a v1 is in time order once in the v6 layout
                    v6[i] = version == 6 and id or assert(mintid.uuid1_to_uuid6(id))
                    if i > 1 then assert.is_true(v6[i - 1] < v6[i], id) end
                end
            end
            fails(2, { "uuid6", "extra" }, nil, "takes no argument")
        end)

        -- Python's uuid.uuid3/uuid5 (RFC 9562 Appendix A for the first)
        local NAME_BASED = {
            { "dns", "www.example.com", "5df41881-3aed-3515-88a7-2f4a814cf09e", "2ed6657d-e927-568b-95e1-2665a8aea6a2" },
            { "url", "https://example.com/", "b9dcdff8-af4a-365d-8043-0f8361942709",
                "dd2c1780-811a-5296-81c5-178a0ef488bc" },
            { "oid", "1.3.6.1", "dd1a1cef-13d5-368a-ad82-eca71acd4cd1", "1447fa61-5277-5fef-a9b3-fbc6e44f4af3" },
            { "x500", "cn=John Doe,o=Acme", "44605102-f0fe-3590-ba8d-457f38a1c122",
                "56427d5b-cb4e-5e1f-a034-040025b6d964" },
            { "017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "h\195\169llo", "b983d96e-446f-3798-aa86-3d02401d9813",
                "7f230a32-c842-54ef-abf0-9ea748139127" },
        }

        it("uuid3, uuid5: NAMESPACE (dns, url, oid, x500 or a UUID) NAME..., one ID per name", function()
            for _, c in ipairs(NAME_BASED) do
                assert.are.same({ c[3] }, ok_lines({ "uuid3", c[1], c[2] }), c[1])
                assert.are.same({ c[4] }, ok_lines({ "uuid5", c[1], c[2] }), c[1])
            end
            assert.are.same({ NAME_BASED[1][4], NAME_BASED[1][4] }, ok_lines({ "uuid5", "DNS", "www.example.com",
                "www.example.com" }))
            assert.are.same({ NAME_BASED[1][3] }, ok_lines({ "uuid3", "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                "www.example.com" }))
            assert.are.same({ "5b575e09-04f1-5e31-bd9e-5f7e6e2b1324" }, ok_lines({ "uuid5", NAME_BASED[5][1], "" }))
        end)

        it("uuid3, uuid5: a bad namespace or no name is a usage error before any output; no -n", function()
            for _, command in ipairs({ "uuid3", "uuid5" }) do
                assert.are.equal("", (fails(2, { command, "dnss", "a", "b" }, nil, "namespace 'dnss'",
                    "invalid UUID")))
                assert.are.equal("", (fails(2, { command, "017f22e2-79b0-7cc3-98c4-dc0c0c07398g", "a" }, nil,
                    "invalid UUID")))
                fails(2, { command, "dns" }, nil, "want NAMESPACE NAME")
                fails(2, { command }, nil, "want NAMESPACE NAME")
                fails(2, { command, "-n", "2", "dns", "a" }, nil, "unknown option '-n'")
            end
        end)

        it("ksuid: -n N KSUIDs of now, increasing", function()
            local ids = ok_lines({ "ksuid", "-n", "40" })
            assert.are.equal(40, #ids)
            for i, id in ipairs(ids) do
                assert.is_truthy(id:match("^" .. ("[0-9A-Za-z]"):rep(27) .. "$"), id)
                local v = assert(mintid.parse_ksuid(id))
                assert.is_true(math.abs(v:time() - os.time() * 1000) < 120000, id)
                if i > 1 then assert.is_true(ids[i - 1] < id) end
            end
        end)

        it("objectid and xid: -n N of now, one process's identity, the counter + 1 per ID", function()
            for _, kind in ipairs({ "objectid", "xid" }) do
                local ids = ok_lines({ kind, "-n", "30" })
                assert.are.equal(30, #ids)
                local first = assert(mintid["parse_" .. kind](ids[1]))
                for i, id in ipairs(ids) do
                    local v = assert(mintid["parse_" .. kind](id))
                    assert.are.equal(id, tostring(v))
                    assert.are.equal(first:bytes():sub(5, 9), v:bytes():sub(5, 9), id)
                    assert.are.equal((first:counter() + i - 1) % 16777216, v:counter(), id)
                    assert.is_true(math.abs(v:time() - os.time() * 1000) < 120000, id)
                end
                fails(2, { kind, "extra" }, nil, kind)
            end
            -- XID_MACHINE_ID, as rs/xid reads it, sets the machine id
            local x = assert(mintid.parse_xid(ok_lines({ "xid" }, { XID_MACHINE_ID = "16777214" })[1]))
            assert.are.equal("\255\255\254", x:machine())
        end)

        it("typeid: -n N TypeIDs per PREFIX ('' for none), increasing within a prefix", function()
            local ids = ok_lines({ "typeid", "-n", "20", "user", "" })
            assert.are.equal(40, #ids)
            for i, id in ipairs(ids) do
                local v = assert(mintid.parse_typeid(id))
                local prefix = i <= 20 and "user" or ""
                assert.are.equal(prefix, v:prefix(), id)
                assert.are.equal(7, v:uuid():version(), id)
                assert.is_truthy(id:match("^" .. (prefix == "" and "" or "user_") .. "[0-7][0-9a-hjkmnp-tv-z]+$"), id)
                assert.are.equal(#prefix + (prefix == "" and 26 or 27), #id)
                if i ~= 1 and i ~= 21 then assert.is_true(ids[i - 1] < id, id) end
            end
        end)

        it("typeid: a bad prefix (any of them) or none is a usage error before any output", function()
            for _, prefix in ipairs({ "User", "_user", "user_", "us-er", ("a"):rep(64) }) do
                assert.are.equal("", (fails(2, { "typeid", "-n", "3", "user", prefix }, nil,
                    "typeid: prefix '" .. prefix .. "'")))
            end
            fails(2, { "typeid" }, nil, "no PREFIX given")
        end)

        it("nanoid: --size and --alphabet", function()
            assert.are.equal(21, #ok_lines({ "nanoid" })[1])
            local ids = ok_lines({ "nanoid", "-n", "3", "--size", "12", "--alphabet", "xyz" })
            assert.are.equal(3, #ids)
            for _, id in ipairs(ids) do assert.is_truthy(id:match("^[xyz]+$") and #id == 12, id) end
            assert.is_truthy(ok_lines({ "nanoid", "--size=5", "--alphabet=-_" })[1]:match("^[-_][-_][-_][-_][-_]$"))
        end)

        it("cuid2: -n and --length, CUID2s of the process-wide generator", function()
            local ids = ok_lines({ "cuid2", "-n", "3" })
            assert.are.equal(3, #ids)
            for _, id in ipairs(ids) do
                assert.is_truthy(id:match("^[a-z]" .. ("[0-9a-z]"):rep(23) .. "$"), id)
            end
            assert.are_not.equal(ids[1], ids[2])
            assert.is_truthy(ok_lines({ "cuid2", "--length", "2" })[1]:match("^[a-z][0-9a-z]$"))
            assert.are.equal(32, #ok_lines({ "cuid2", "--length=32" })[1])
            assert.is_truthy(table.concat(ok_lines({ "--help" }), "\n"):find("mintid cuid2 [-n N] [--length L]", 1, true))
            fails(2, { "cuid2", "--length", "33" }, nil, "length must be 2..32, got 33")
            fails(2, { "cuid2", "--length", "x" }, nil, "--length wants an integer, got 'x'")
            fails(2, { "cuid2", "extra" }, nil, "cuid2 takes no argument, got 'extra'")
        end)

        it("snowflake: --machine-id and --epoch, read back by inspect with the same epoch", function()
            local epoch = "1288834974657"
            local ids = ok_lines({ "snowflake", "-n", "3", "--machine-id", "7", "--epoch", epoch })
            assert.are.equal(3, #ids)
            local before = os.time() * 1000
            local parsed = inspect({ "inspect", "--epoch", epoch, ids[1], ids[2], ids[3] })
            assert.are.equal(3, #parsed)
            for i, f in ipairs(parsed) do
                assert.is_truthy(ids[i]:match("^%d+$"), ids[i])
                assert.are.equal(ids[i], f.id)
                assert.are.equal("snowflake", f.kind)
                assert.are.equal("7", f.machine_id)
                assert.are.equal(epoch, f.epoch)
                assert.is_true(math.abs(tonumber(f.unix_ms) - before) < 120000, f.unix_ms)
            end
        end)

        it("snowflake --layout: a preset or T/U/M/S/E/order, read back by inspect --layout", function()
            for _, layout in ipairs { "sonyflake", "41/1/4/8/1600000000000/time-machine-seq" } do
                local ids = ok_lines({ "snowflake", "-n", "2", "--machine-id", "9", "--layout", layout })
                assert.are.equal(2, #ids)
                local parsed = inspect({ "inspect", "--layout", layout, ids[1], ids[2] })
                for i, f in ipairs(parsed) do
                    local ts, mid, seq = mintid.parse_snowflake(ids[i], layout == "sonyflake" and layout
                        or { time_bits = 41, machine_bits = 4, seq_bits = 8, epoch = 1600000000000 })
                    assert.are.same({ "snowflake", layout, "9", h.dec(ts), h.dec(seq) },
                        { f.kind, f.layout, f.machine_id, f.unix_ms, f.sequence }, layout)
                    assert.are.equal(9, mid)
                end
            end
            -- --epoch replaces the layout's
            local id = ok_lines({ "snowflake", "--layout", "sonyflake", "--epoch", "0", "--machine-id", "1" })[1]
            local f = inspect({ "inspect", "--layout", "sonyflake", "--epoch", "0", id })[1]
            assert.are.same({ "39/10/16/8/0/time-seq-machine", "0", "1" }, { f.layout, f.epoch, f.machine_id })
            fails(2, { "snowflake", "--layout", "nope" }, nil, "--layout: unknown layout preset 'nope'")
            fails(2, { "inspect", "--layout", "41/1/4/8/1600000000000/sideways", "1" }, nil,
                "--layout: order must be \"time-machine-seq\" or \"time-seq-machine\"")
            fails(2, { "snowflake", "--layout", "sonyflake", "--machine-id", "65536" }, nil,
                "machine_id must be 0..65535, got 65536")
            fails(1, { "inspect", "--layout", "41/1/4/8/1600000000000/time-machine-seq", "9007199254740992" }, nil,
                "not of this layout")
        end)

        describe("snowflake without --machine-id", function()
            local LOCK = "snowflake-42_1_10_12_0_time-machine-seq.lock"

            -- 8 at a time, each run minting for a few ms: with one machine id
            -- for all, runs that start in the same ms print the same IDs.
            it("concurrent runs never print the same ID: each leases a machine id from a lock file", function()
                local dir = sandbox .. "/concurrent"
                assert(sh("mkdir " .. dir))
                local script = {}
                for round = 1, 3 do
                    for i = 1, 8 do
                        local f = ("%s/%d-%d"):format(dir, round, i)
                        script[#script + 1] = ("(%s >%s.out 2>%s.err; echo $? >%s.status) &"):format(
                            h.cli_command({ "snowflake", "-n", "2000" }), f, f, f)
                    end
                    script[#script + 1] = "wait"
                end
                assert(sh(table.concat(script, "\n")))
                local seen, twice, machines = {}, 0, {}
                for round = 1, 3 do
                    for i = 1, 8 do
                        local f = ("%s/%d-%d"):format(dir, round, i)
                        assert.are.same({ "0\n", "" }, { read_file(f .. ".status"), read_file(f .. ".err") }, f)
                        local ids = lines(read_file(f .. ".out"))
                        assert.are.equal(2000, #ids, f)
                        for _, id in ipairs(ids) do
                            if seen[id] then twice = twice + 1 end
                            seen[id] = true
                        end
                        machines[select(2, mintid.parse_snowflake(ids[1]))] = true
                    end
                end
                assert.are.equal(0, twice, "IDs printed twice")
                assert.is_truthy(machines[0], "the first free id, 0, is taken")
                assert.is_truthy(read_file(sandbox .. "/run/mintid/" .. LOCK), "the default lock file")
            end)

            it("the default lock file: XDG_RUNTIME_DIR, XDG_STATE_HOME or ~/.local/state, in a folder mintid made", function()
                local cases = {
                    { { XDG_RUNTIME_DIR = sandbox .. "/a/run" }, sandbox .. "/a/run/mintid/" },
                    { { XDG_RUNTIME_DIR = false, XDG_STATE_HOME = sandbox .. "/b/state" }, sandbox .. "/b/state/mintid/" },
                    { { XDG_RUNTIME_DIR = false, XDG_STATE_HOME = false, HOME = sandbox .. "/c" },
                        sandbox .. "/c/.local/state/mintid/" },
                }
                for _, case in ipairs(cases) do
                    local out = ok_lines({ "snowflake", "-n", "2" }, case[1])
                    assert.are.equal(2, #out)
                    assert.are.equal("", read_file(case[2] .. LOCK), case[2])
                end
                -- one lock file per layout: another layout is no refusal
                local id = ok_lines({ "snowflake", "--layout", "sonyflake" }, cases[1][1])[1]
                assert.are.equal(0, select(2, mintid.parse_snowflake(id, "sonyflake")))
                assert.is_truthy(read_file(cases[1][2] .. "snowflake-39_10_16_8_1409529600000_time-seq-machine.lock"))
                assert.are.equal("", (fails(2, { "snowflake" }, { XDG_RUNTIME_DIR = false, XDG_STATE_HOME = false, HOME = false },
                    "snowflake: no folder for the default lock file (XDG_RUNTIME_DIR, XDG_STATE_HOME and HOME are unset): "
                    .. "give --lock-file PATH or --machine-id M (see mintid --help)")))
            end)

            it("--lock-file PATH: the first id no other process holds in it", function()
                local path = sandbox .. "/given.lock"
                local l = require("mintid.lease").lock_file { path = path, machine_ids = { 0, 0 } }
                assert.are.equal(0, l:acquire())
                local ids = ok_lines({ "snowflake", "-n", "3", "--lock-file", path })
                for _, id in ipairs(ids) do assert.are.equal(1, select(2, mintid.parse_snowflake(id))) end
                l:release()
                assert.are.equal("", (fails(2, { "snowflake", "--lock-file", path, "--machine-id", "3" }, nil,
                    "snowflake: give --machine-id M or --lock-file PATH, not both")))
                assert.are.equal("", (fails(1, { "snowflake", "--lock-file", sandbox .. "/none/x.lock" }, nil,
                    "snowflake: lock file " .. sandbox .. "/none/x.lock: cannot open")))
            end)

            it("--help says what happens with and without --machine-id", function()
                local out = table.concat(ok_lines({ "--help" }), "\n")
                for _, s in ipairs({ "--lock-file PATH", "$XDG_RUNTIME_DIR/mintid", "concurrent runs with the same",
                    "--machine-id repeat IDs" }) do
                    assert.is_truthy(out:find(s, 1, true), "--help mentions " .. s)
                end
            end)
        end)

        -- A field read as nil would be the default's: the command would run
        -- with another layout than the one given.
        it("--layout T/U/M/S/E/order: a field this Lua cannot hold exactly is a usage error naming it", function()
            local past = h.has_integers and "99999999999999999999" or "9007199254740993"
            local fields = { "time_bits", "time_unit_ms", "machine_bits", "seq_bits", "epoch" }
            for i, field in ipairs(fields) do
                local parts = { "41", "1", "10", "12", "0" }
                parts[i] = past
                local layout = table.concat(parts, "/") .. "/time-machine-seq"
                for _, command in ipairs({ { "snowflake", "--machine-id", "1" }, { "inspect", "0" }, { "lease", "--lock-file", "x" } }) do
                    local args = { command[1], "--layout", layout, command[2], command[3] }
                    assert.are.equal("", (fails(2, args, nil, "--layout: " .. field .. " wants an integer that this Lua's numbers ("
                        .. (h.has_integers and "64-bit integers" or "doubles") .. ") hold exactly, got '" .. past .. "'"
                        .. " (see mintid --help)")))
                end
            end
        end)

        it("relative: the secret from MINTID_SECRET only, -n per key, --salt", function()
            local ids = ok_lines({ "relative", "-n", "2", "--salt", "orders", "customer-17", "customer-99" },
                { MINTID_SECRET = SECRET })
            assert.are.equal(4, #ids)
            local g = mintid.relative_generator { secret = SECRET, salt = "orders" }
            for i, key in ipairs({ "customer-17", "customer-17", "customer-99", "customer-99" }) do
                assert.is_truthy(ids[i]:match(h.RELATIVE_PATTERN), ids[i])
                assert.are.equal(g:prefix(key), ids[i]:sub(1, 7), key)
            end
            assert.is_true(ids[1] < ids[2])
        end)

        it("relative: no secret, a short one, or one given as an option is refused", function()
            fails(2, { "relative", "k" }, { MINTID_SECRET = false }, "MINTID_SECRET")
            fails(2, { "relative", "k" }, { MINTID_SECRET = "" }, "MINTID_SECRET")
            fails(2, { "relative", "k" }, { MINTID_SECRET = "short" }, "MINTID_SECRET", "16")
            fails(2, { "relative", "--secret", SECRET, "k" }, { MINTID_SECRET = false }, "unknown option '--secret'")
            fails(2, { "relative" }, { MINTID_SECRET = SECRET }, "no KEY given")
        end)

        it("trace-id, span-id: -n N W3C Trace Context ids, distinct", function()
            local ids = ok_lines({ "trace-id", "-n", "3" })
            assert.are.equal(3, #ids)
            for _, id in ipairs(ids) do assert.is_truthy(id:match("^" .. ("[0-9a-f]"):rep(32) .. "$"), id) end
            assert.are_not.equal(ids[1], ids[2])
            local spans = ok_lines({ "span-id", "-n", "2" })
            assert.are.equal(2, #spans)
            for _, id in ipairs(spans) do assert.is_truthy(id:match("^" .. ("[0-9a-f]"):rep(16) .. "$"), id) end
            fails(2, { "trace-id", "x" }, nil, "trace-id takes no argument, got 'x'")
        end)

        it("traceparent: fresh ids unless given, --flags as an integer, each header parsing back", function()
            local T = "4bf92f3577b34da6a3ce929d0e0e4736"
            local fresh = ok_lines({ "traceparent" })
            assert.are.equal(1, #fresh)
            assert.are.equal(0, select(3, mintid.parse_traceparent(fresh[1])))
            local given = ok_lines({ "traceparent", "-n", "2", "--trace-id", T, "--flags", "1" })
            assert.are.equal(2, #given)
            for _, header in ipairs(given) do
                local trace_id, _, flags = mintid.parse_traceparent(header)
                assert.are.equal(T, trace_id, header)
                assert.are.equal(1, flags, header)
            end
            assert.are_not.equal(given[1], given[2]) -- a fresh parent-id each
            assert.are.same({ "00-" .. T .. "-00f067aa0ba902b7-ff" },
                ok_lines({ "traceparent", "--trace-id", T, "--parent-id", "00f067aa0ba902b7", "--flags", "255" }))
        end)

        it("traceparent: a bad id or flags is a usage error before any output", function()
            local out = fails(2, { "traceparent", "--trace-id", "ABC" }, nil,
                "traceparent: invalid trace-id: length 3, want 32")
            assert.are.equal("", out)
            fails(2, { "traceparent", "--parent-id", ("0"):rep(16) }, nil, "invalid parent-id: all zero")
            fails(2, { "traceparent", "--flags", "256" }, nil, "flags must be an integer 0..255, got 256")
            fails(2, { "traceparent", "--flags", "x" }, nil, "--flags wants an integer, got 'x'")
        end)
    end)

    describe("convert", function()
        it("ULID <-> UUID text of the same bytes, several at once", function()
            assert.are.same({ "01563e3a-b5d3-d676-4c61-efb99302bd5b", "01ARZ3NDEKTSV4RRFFQ69G5FAV" },
                ok_lines({ "convert", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01563E3A-B5D3-D676-4C61-EFB99302BD5B" }))
            local id = mintid.ulid()
            assert.are.same({ id }, ok_lines({ "convert", ok_lines({ "convert", id })[1] }))
        end)

        it("bad text: the one-line message, exit 1, the good ones still printed", function()
            local out = fails(1, { "convert", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil,
                "invalid ULID: bad character 'U' at 26")
            assert.are.equal("01563e3a-b5d3-d676-4c61-efb99302bd5b\n", out)
        end)

        -- RFC 9562 Appendix A (v1, v6) and the TypeID spec's valid.yml
        local V1, V6 = "c232ab00-9414-11ec-b3c8-9f6bdeced846", "1ec9414c-232a-6b00-b3c8-9f6bdeced846"
        local TYPEID, TYPEID_UUID = "prefix_01h455vb4pex5vsknk084sn02q", "01890a5d-ac96-774b-bcce-b302099a8057"

        it("a TypeID: its UUID by default; --to ulid, uuid, typeid (--prefix) from any of the three", function()
            assert.are.same({ TYPEID_UUID }, ok_lines({ "convert", TYPEID }))
            assert.are.same({ "01H455VB4PEX5VSKNK084SN02Q" }, ok_lines({ "convert", "--to", "ulid", TYPEID }))
            assert.are.same({ TYPEID, TYPEID, TYPEID }, ok_lines({ "convert", "--to", "typeid", "--prefix", "prefix",
                TYPEID_UUID, "01H455VB4PEX5VSKNK084SN02Q", "other_01h455vb4pex5vsknk084sn02q" }))
            assert.are.same({ "01h455vb4pex5vsknk084sn02q", "7zzzzzzzzzzzzzzzzzzzzzzzzz" },
                ok_lines({ "convert", "--to=typeid", TYPEID_UUID, "ffffffff-ffff-ffff-ffff-ffffffffffff" }))
            assert.are.same({ TYPEID_UUID, TYPEID_UUID }, ok_lines({ "convert", "--to", "uuid",
                TYPEID_UUID:upper(), "01h455vb4pex5vsknk084sn02q" }))
        end)

        it("--to uuid6 of a UUIDv1 and --to uuid1 of a UUIDv6; any other version is refused", function()
            assert.are.same({ V6 }, ok_lines({ "convert", "--to", "uuid6", V1:upper() }))
            assert.are.same({ V1 }, ok_lines({ "convert", "--to", "uuid1", V6 }))
            local id = mintid.uuid1()
            assert.are.same({ id }, ok_lines({ "convert", "--to", "uuid1", ok_lines({ "convert", "--to", "uuid6", id })[1] }))
            local out = fails(1, { "convert", "--to", "uuid6", TYPEID_UUID, V1 }, nil, "mintid: ")
            assert.are.equal(V6 .. "\n", out)
            fails(1, { "convert", "--to", "uuid1", V1 }, nil, "mintid: ")
        end)

        it("a KSUID, relative ID or Snowflake has no other form: exit 1", function()
            fails(1, { "convert", "0ujtsYcgvSTl8PAuAdqWYSMnLOv" }, nil, "cannot convert a ksuid ID")
            fails(1, { "convert", "3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8" }, nil, "cannot convert a relative ID")
            fails(1, { "convert", "--to", "uuid", "4194304" }, nil, "cannot convert a snowflake ID")
            fails(1, { "convert", "prefix_01h455vb4pex5vsknk084sn02Q" }, nil, "mintid: ")
        end)

        it("a bad --to or --prefix is a usage error before any output", function()
            local ok_id = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
            assert.are.equal("", (fails(2, { "convert", "--to", "guid", ok_id }, nil, "--to wants", "'guid'")))
            assert.are.equal("", (fails(2, { "convert", "--prefix", "user", ok_id }, nil, "--prefix is for --to typeid")))
            for _, prefix in ipairs({ "User", "user_", "9" }) do
                assert.are.equal("", (fails(2, { "convert", "--to", "typeid", "--prefix", prefix, ok_id }, nil,
                    "--prefix '" .. prefix .. "'")))
            end
        end)
    end)

    describe("inspect", function()
        it("a ULID: time in ISO 8601 UTC with ms and Unix ms, random part, the UUID form", function()
            local f = inspect({ "inspect", "01arz3ndektsv4rrffq69g5fav" })[1]
            assert.are.same({
                id = "01ARZ3NDEKTSV4RRFFQ69G5FAV", kind = "ulid", time = "2016-07-30T23:54:10.259Z",
                unix_ms = "1469922850259", random = "d6764c61efb99302bd5b",
                uuid = "01563e3a-b5d3-d676-4c61-efb99302bd5b",
            }, f)
        end)

        it("a UUID: version, variant, time for version 7 only", function()
            local v7 = inspect({ "inspect", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F" })[1]
            assert.are.same({
                id = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", kind = "uuid", version = "7",
                variant = "RFC 9562", time = "2022-02-22T19:22:22.000Z", unix_ms = "1645557742000",
                ulid = "01FWHE4YDGFK1SHH6W1G60EECF",
            }, v7)
            local v4 = inspect({ "inspect", "3f1c8e0a-5b7d-4f2e-a9c6-0d4b8e1f7a23" })[1]
            assert.are.equal("4", v4.version)
            assert.are.equal("RFC 9562", v4.variant)
            assert.is_nil(v4.time)
            assert.is_nil(v4.unix_ms)
            local variants = { ["0"] = "NCS", ["7"] = "NCS", ["8"] = "RFC 9562", b = "RFC 9562",
                c = "Microsoft", d = "Microsoft", e = "future", f = "future" }
            for nibble, name in pairs(variants) do
                local id = "3f1c8e0a-5b7d-4f2e-" .. nibble .. "9c6-0d4b8e1f7a23"
                assert.are.equal(name, inspect({ "inspect", id })[1].variant, id)
            end
        end)

        it("a UUIDv1 or v6 (RFC 9562 Appendix A): its time and its twin in the other layout", function()
            local time, unix_ms = "2022-02-22T19:22:22.000Z", "1645557742000"
            local v1 = inspect({ "inspect", "C232AB00-9414-11EC-B3C8-9F6BDECED846" })[1]
            assert.are.same({ id = "c232ab00-9414-11ec-b3c8-9f6bdeced846", kind = "uuid", version = "1",
                variant = "RFC 9562", time = time, unix_ms = unix_ms,
                uuid6 = "1ec9414c-232a-6b00-b3c8-9f6bdeced846", ulid = "626ANG150M27PB7J4ZDFFCXP26" }, v1)
            local v6 = json_fields(ok_lines({ "inspect", "--json", "1ec9414c-232a-6b00-b3c8-9f6bdeced846" })[1])
            assert.are.same({ id = "1ec9414c-232a-6b00-b3c8-9f6bdeced846", kind = "uuid", version = "6",
                variant = "RFC 9562", time = time, unix_ms = unix_ms,
                uuid1 = "c232ab00-9414-11ec-b3c8-9f6bdeced846", ulid = "0YS50MR8SADC0B7J4ZDFFCXP26" }, v6)
            -- tick 0 (1582) and the last tick, 2^60 - 1 (Python's datetime)
            local first = json_fields(ok_lines({ "inspect", "--json", "00000000-0000-1000-8000-000000000000" })[1])
            assert.are.equal("-12219292800000", first.unix_ms)
            assert.are.equal("1582-10-15T00:00:00.000Z", first.time)
            local last = inspect({ "inspect", "ffffffff-ffff-1fff-bfff-ffffffffffff" })[1]
            assert.are.equal("103072857660684", last.unix_ms)
            assert.are.equal("5236-03-31T21:21:00.684Z", last.time)
            assert.is_nil(inspect({ "inspect", "5df41881-3aed-3515-88a7-2f4a814cf09e" })[1].time)
        end)

        it("a KSUID (27 chars of base62): time and payload (segmentio's example)", function()
            assert.are.same({ id = "0ujtsYcgvSTl8PAuAdqWYSMnLOv", kind = "ksuid", time = "2017-10-10T04:00:47.000Z",
                unix_ms = "1507608047000", payload = "b5a1cd34b5f99d1154fb6853345c9735" },
                inspect({ "inspect", "0ujtsYcgvSTl8PAuAdqWYSMnLOv" })[1])
            assert.are.equal("1400000000000", json_fields(ok_lines({ "inspect", "--json",
                "000000000000000000000000000" })[1]).unix_ms)
            fails(1, { "inspect", "aWgEPTl1tmebfsQzFP4bxwgy80W" }, nil, "mintid: ")
            local id = mintid.ksuid()
            assert.are.equal(h.dec(assert(mintid.parse_ksuid(id)):time()), inspect({ "inspect", id })[1].unix_ms)
        end)

        it("an ObjectId (24 hex digits, either case) and an XID (20 of 0-9a-v): time, identity, counter", function()
            assert.are.same({ id = "507f1f77bcf86cd799439011", kind = "objectid", time = "2012-10-17T21:13:27.000Z",
                unix_ms = "1350508407000", random = "bcf86cd799", counter = "4427793" },
                inspect({ "inspect", "507F1F77BCF86CD799439011" })[1])
            assert.are.same({ id = "9m4e2mr0ui3e8a215n4g", kind = "xid", time = "2011-03-22T17:50:19.000Z",
                unix_ms = "1300816219000", machine = "60f486", pid = "58408", counter = "4271561" },
                inspect({ "inspect", "9m4e2mr0ui3e8a215n4g" })[1])
            local j = json_fields(ok_lines({ "inspect", "--json", "9m4e2mr0ui3e8a215n4g" })[1])
            assert.are.equal("xid", j.kind)
            assert.are.equal("58408", j.pid)
            fails(1, { "inspect", "9m4e2mr0ui3e8a215n4h" }, nil,
                "mintid: invalid XID: last character 'h' sets padding bits (want 0 or g)")
            fails(1, { "inspect", "507f1f77bcf86cd79943901z" }, nil, "mintid: invalid ObjectId: bad character 'z' at 24")
            -- 20 digits stay a Snowflake; --kind xid reads them as an XID
            assert.are.equal("snowflake", inspect({ "inspect", "12345678901234567890" })[1].kind)
            assert.are.equal("xid", inspect({ "inspect", "--kind", "xid", "12345678901234567890" })[1].kind)
        end)

        it("a TypeID (with a '_'): prefix, its UUID's time, version and text", function()
            local want = { id = "prefix_01h455vb4pex5vsknk084sn02q", kind = "typeid", prefix = "prefix",
                time = "2023-06-30T03:34:18.518Z", unix_ms = "1688096058518",
                uuid = "01890a5d-ac96-774b-bcce-b302099a8057", version = "7" }
            assert.are.same(want, inspect({ "inspect", want.id })[1])
            assert.are.same(want, json_fields(ok_lines({ "inspect", "--json", want.id })[1]))
            -- 36 chars, but a '_': a TypeID, not a UUID
            local long = "abcdefghi_01h455vb4pex5vsknk084sn02q"
            assert.are.equal(36, #long)
            assert.are.equal("abcdefghi", inspect({ "inspect", long })[1].prefix)
            fails(1, { "inspect", "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz" }, nil, "mintid: ")
            fails(1, { "inspect", "_01h455vb4pex5vsknk084sn02q" }, nil, "mintid: ")
        end)

        it("a bare TypeID suffix is a ULID of the same bytes; --kind typeid reads it as a TypeID", function()
            local bare = "01h455vb4pex5vsknk084sn02q"
            local as_ulid = inspect({ "inspect", bare })[1]
            assert.are.equal("ulid", as_ulid.kind)
            assert.are.equal("01890a5d-ac96-774b-bcce-b302099a8057", as_ulid.uuid)
            local f = json_fields(ok_lines({ "inspect", "--json", "--kind", "typeid", bare })[1])
            assert.are.equal("typeid", f.kind)
            assert.are.equal("", f.prefix)
            assert.are.equal(as_ulid.uuid, f.uuid)
            -- strict: uppercase is no TypeID suffix
            fails(1, { "inspect", "--kind", "typeid", bare:upper() }, nil, "mintid: ")
        end)

        it("a relative ID (28 chars, '-' at 7 and 18): time, tag and rand", function()
            local g = mintid.relative_generator { secret = SECRET }
            local id = g:next("customer-17")
            local v = assert(mintid.parse_relative(id))
            local f = inspect({ "inspect", id:lower() })[1]
            assert.are.equal("relative", f.kind)
            assert.are.equal(id, f.id)
            assert.are.equal(id:sub(1, 6), f.tag)
            assert.are.equal(h.dec(v:tag()), f.tag_value)
            assert.are.equal(h.dec(v:rand()), f.rand)
            assert.are.equal(h.dec(v:time()), f.unix_ms)
        end)

        it("26 chars are a ULID; a relative ID without hyphens needs --kind relative", function()
            local compact = "3F8KQZ01J8Y4Q9M3X3B0N6E3P8"
            assert.are.equal("ulid", inspect({ "inspect", compact })[1].kind)
            local f = inspect({ "inspect", "--kind", "relative", compact })[1]
            assert.are.equal("relative", f.kind)
            assert.are.equal("3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8", f.id)
            fails(1, { "inspect", "--kind", "uuid", compact }, nil, "invalid UUID")
        end)

        it("Snowflake digits: parts as parse_snowflake gives them, with --epoch (default 0)", function()
            local checked = h.each_vector("snowflake.txt", { "id", "epoch", "timestamp", "machine_id", "sequence" },
                function(r, w)
                    local ts, mid, seq = mintid.parse_snowflake(r.id, h.num(r.epoch))
                    local out, err, status = run({ "inspect", "--json", "--epoch", r.epoch, r.id })
                    if ts == nil then
                        assert.are.equal(1, status, w)
                        assert.are.equal("mintid: " .. mid .. "\n", err, w)
                        return
                    end
                    assert.are.equal(0, status, w .. ": " .. err)
                    local f = json_fields(out:match("^[^\n]*"))
                    assert.are.equal("snowflake", f.kind, w)
                    assert.are.equal(h.dec(ts), f.unix_ms, w)
                    assert.are.equal(h.dec(mid), f.machine_id, w)
                    assert.are.equal(h.dec(seq), f.sequence, w)
                    assert.are.equal(r.epoch, f.epoch, w)
                end)
            assert.is_true(checked > 10)
            assert.are.equal("0", inspect({ "inspect", "4194304" })[1].epoch)
        end)

        it("ISO 8601 agrees with os.date at the edges and across the ULID time range", function()
            local ms_list = { 0, 999, 86399999, 86400000, 951825600000, 951868799999, 4107542399999,
                253402300799999 }
            local seed = 7
            for _ = 1, 60 do
                seed = seed * 16807 % 2147483647
                ms_list[#ms_list + 1] = seed * 117 % 253402300799999 -- to the end of year 9999
            end
            -- os.date is the reference only where it reaches: a 32-bit time_t
            -- (Debian's armhf Lua) stops at 2038; the last check below and every
            -- other platform cover the later times.
            if os.date("!%Y", 4107542399) ~= "2100" then
                local reached = {}
                for _, ms in ipairs(ms_list) do
                    if ms < 2147483648000 then reached[#reached + 1] = ms end
                end
                ms_list = reached
            end
            local args = { "inspect" }
            for i, ms in ipairs(ms_list) do
                args[i + 1] = tostring(assert(mintid.ulid_from(h.int(ms), ("\0"):rep(10))))
            end
            local parsed = inspect(args)
            assert.are.equal(#ms_list, #parsed)
            for i, ms in ipairs(ms_list) do
                local secs = math.floor(ms / 1000)
                local want = os.date("!%Y-%m-%dT%H:%M:%S", secs) .. string.format(".%03dZ", ms - secs * 1000)
                assert.are.equal(want, parsed[i].time, string.format("%.0f", ms))
                assert.are.equal(string.format("%.0f", ms), parsed[i].unix_ms)
            end
            -- past year 9999, where os.date may not reach: the last ULID millisecond
            assert.are.equal("10889-08-02T05:31:50.655Z", inspect({ "inspect", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ" })[1].time)
        end)

        it("a traceparent header (55 chars or more, '-' at 3): version, ids, flags, sampled and random", function()
            local f = inspect({ "inspect", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03",
                "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-later" })
            assert.are.same({
                id = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03", kind = "traceparent", version = "00",
                trace_id = "4bf92f3577b34da6a3ce929d0e0e4736", parent_id = "00f067aa0ba902b7", flags = "03",
                sampled = "true", random = "true",
            }, f[1])
            assert.are.equal("01", f[2].version)
            assert.are.equal("false", f[2].sampled)
            local json = ok_lines({ "inspect", "--json", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" })
            assert.is_truthy(json[1]:find('"flags":"01","sampled":true,"random":false}', 1, true), json[1])
            fails(1, { "inspect", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" }, nil,
                "mintid: invalid traceparent: version ff is invalid")
            fails(1, { "inspect", "--kind", "traceparent", "00-4bf" }, nil,
                "mintid: invalid traceparent: length 6, want at least 55")
        end)

        it("--json: bytes >= 0x80 of a later version's tail escaped, so the line is ASCII JSON (RFC 8259)", function()
            local header = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-\128\255x\"\1"
            local json = ok_lines({ "inspect", "--json", header })
            assert.are.equal(1, #json)
            assert.is_falsy(json[1]:find("[\128-\255]"), "no byte >= 0x80: " .. json[1])
            assert.is_truthy(json[1]:find('"id":"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-'
                .. '\\u0080\\u00ffx\\u0022\\u0001"', 1, true), json[1])
        end)

        it("--json: one object per ID per line, numbers as JSON numbers", function()
            local out = ok_lines({ "inspect", "--json", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
                "017F22E2-79B0-7CC3-98C4-DC0C0C07398F" })
            assert.are.equal(2, #out)
            assert.is_truthy(out[1]:find('"unix_ms":1469922850259', 1, true), out[1])
            assert.is_truthy(out[1]:find('"time":"2016-07-30T23:54:10.259Z"', 1, true), out[1])
            assert.is_truthy(out[2]:find('"version":7', 1, true), out[2])
            assert.are.same({
                kind = "uuid", id = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", version = "7", variant = "RFC 9562",
                time = "2022-02-22T19:22:22.000Z", unix_ms = "1645557742000", ulid = "01FWHE4YDGFK1SHH6W1G60EECF",
            }, json_fields(out[2]))
        end)

        it("text that is no ID: its one-line message on stderr, exit 1, the others still inspected", function()
            fails(1, { "inspect", "01ARZ3NDEKTSV4RRFFQ69G5FAU" }, nil, "mintid: invalid ULID: bad character 'U' at 26")
            fails(1, { "inspect", "hello" }, nil, "unrecognised ID: length 5")
            fails(1, { "inspect", "017F22E2-79B0-7CC3-98C4-DC0C0C07398G" }, nil, "invalid UUID")
            fails(1, { "inspect", "3F8KQZ-01J8Y4Q9M3-X3B0N6E3PU" }, nil, "invalid relative ID")
            fails(1, { "inspect", "99999999999999999999" }, nil, "snowflake")
            local out = fails(1, { "inspect", "--json", "nope", "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil,
                "unrecognised ID")
            assert.are.equal("ulid", json_fields(out:match("^[^\n]*")).kind)
        end)
    end)

    describe("inspect reading standard input (no ID argument, or '-')", function()
        local ULID, UUID = "01ARZ3NDEKTSV4RRFFQ69G5FAV", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"
        local KSUID = "0ujtsYcgvSTl8PAuAdqWYSMnLOv"

        --- Runs `mintid ARGS...` with `input` as its standard input: stdout,
        -- stderr and the exit status.
        local function run_with_input(input, args)
            local path = os.tmpname()
            local f = assert(io.open(path, "wb"))
            f:write(input)
            f:close()
            local out, err, status = run(args, nil, "<" .. path)
            os.remove(path)
            return out, err, status
        end

        it("one ID per line: the output of the same IDs as arguments, exit 0", function()
            local want = run({ "inspect", ULID, UUID, KSUID })
            for _, args in ipairs({ { "inspect" }, { "inspect", "-" } }) do
                local out, err, status = run_with_input(ULID .. "\n" .. UUID .. "\n" .. KSUID .. "\n", args)
                assert.are.equal("", err, table.concat(args, " "))
                assert.are.equal(0, status, table.concat(args, " "))
                assert.are.equal(want, out, table.concat(args, " "))
            end
        end)

        it("a log as written: CRLF ends, blank lines, spaces around an ID, a last line without newline", function()
            local want = run({ "inspect", ULID, UUID, KSUID })
            local out, err, status = run_with_input("\r\n  " .. ULID .. "\r\n\n \t\n\t" .. UUID .. " \r\n" .. KSUID,
                { "inspect" })
            assert.are.equal("", err)
            assert.are.equal(0, status)
            assert.are.equal(want, out)
        end)

        it("a long line of blanks, or an ID among them, takes time in proportion to its length", function()
            local path = os.tmpname()
            local f = assert(io.open(path, "wb"))
            f:write((" "):rep(300000), "\n", ("\t"):rep(300000), ULID, (" "):rep(300000), "\n")
            f:close()
            -- bounded: a matcher that backtracks over the blanks takes hours
            local p = assert(io.popen("timeout 20 " .. h.cli_command({ "inspect" }) .. " <" .. path
                .. ' 2>&1; echo "exit:$?"'))
            local said = p:read("*a")
            p:close()
            os.remove(path)
            assert.are.equal(run({ "inspect", ULID }) .. "exit:0\n", said)
        end)

        it("--json: one object per line read", function()
            local want = run({ "inspect", "--json", ULID, KSUID })
            local out, _, status = run_with_input(ULID .. "\n" .. KSUID .. "\n", { "inspect", "--json" })
            assert.are.equal(0, status)
            assert.are.equal(want, out)
            assert.are.equal(2, #lines(out))
        end)

        it("'-' among IDs: standard input read at its place", function()
            local want = run({ "inspect", ULID, UUID, KSUID })
            local out, _, status = run_with_input(UUID .. "\n", { "inspect", ULID, "-", KSUID })
            assert.are.equal(0, status)
            assert.are.equal(want, out)
        end)

        it("a line that is no ID: its message with the line number on stderr, exit 1, the rest inspected", function()
            local want = run({ "inspect", ULID, KSUID })
            local out, err, status = run_with_input(
                "nope\n" .. ULID .. "\n\n01ARZ3NDEKTSV4RRFFQ69G5FAU\r\n" .. KSUID .. "\n", { "inspect" })
            assert.are.equal(1, status)
            assert.are.equal(want, out)
            assert.are.equal("mintid: stdin line 1: unrecognised ID: length 4 (want a 26-char ULID, a 36-char UUID, "
                .. "a 27-char KSUID, a TypeID prefix_suffix, a 28-char relative ID, a 24-char ObjectId, a 20-char XID, "
                .. "Snowflake digits or a traceparent header)\n"
                .. "mintid: stdin line 4: invalid ULID: bad character 'U' at 26\n", err)
        end)

        it("no input: nothing printed, exit 0", function()
            for _, input in ipairs({ "", "\n\r\n  \n" }) do
                local out, err, status = run_with_input(input, { "inspect" })
                assert.are.same({ "", "", 0 }, { out, err, status }, ("%q"):format(input))
            end
        end)

        it("options checked before anything is read: a bad one is a usage error, exit 2", function()
            local out, err, status = run_with_input(ULID .. "\n", { "inspect", "--kind", "guid" })
            assert.are.same({ "", 2 }, { out, status })
            assert.are.equal("mintid: --kind wants ulid, uuid, relative, snowflake, ksuid, objectid, xid, typeid or traceparent, "
                .. "got 'guid' (see mintid --help)\n", err)
        end)

        it("standard input that cannot be read: one line on stderr, exit 1", function()
            fails_to("<.", 1, { "inspect" }, nil, "mintid: cannot read stdin: ")
        end)
    end)

    describe("options checked before output, numbers exact, output checked (the bad-input table of doc/guide.md)", function()
        local HUGE = "99999999999999999999" -- past 2^64

        it("--epoch negative, past this Lua's integers or in the future: a usage error before any ID is printed", function()
            local out = fails(2, { "inspect", "--epoch", "-5", "4194304", "4194305", "4194306" }, nil,
                "epoch must be >= 0, got -5", "(see mintid --help)")
            assert.are.equal("", out)
            out = fails(2, { "inspect", "--epoch", HUGE, "4194304", "4194305", "4194306" }, nil,
                "--epoch", "'" .. HUGE .. "'", "(see mintid --help)")
            assert.are.equal("", out)
            -- an epoch in the future: the first ID shows it, before any output
            assert.are.equal("", (fails(2, { "snowflake", "-n", "3", "--epoch", "99999999999999" }, nil,
                "--epoch: snowflake timestamp", "is before epoch 99999999999999")))
            for _, epoch in ipairs({ "-5", HUGE, "-" .. HUGE }) do
                -- checked even when no Snowflake ID needs it
                assert.are.equal("", (fails(2, { "inspect", "--epoch", epoch, "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil, "epoch")))
                assert.are.equal("", (fails(2, { "snowflake", "--epoch", epoch }, nil, "epoch")))
            end
        end)

        it("an integer option past what this Lua holds exactly is a usage error, never rounded", function()
            for _, args in ipairs({ { "ulid", "-n", HUGE }, { "uuid4", "-n", "-" .. HUGE }, { "nanoid", "--size", HUGE },
                { "snowflake", "--machine-id", HUGE }, { "snowflake", "--epoch", HUGE },
                { "inspect", "--epoch", HUGE, "0" } }) do
                assert.are.equal("", (fails(2, args, nil, "'" .. args[3] .. "'")))
            end
            if not h.has_integers then
                -- 2^53 + 1, which no double holds: refused, not read as 2^53
                fails(2, { "inspect", "--json", "--epoch", "9007199254740993", "0" }, nil, "--epoch", "9007199254740993")
                fails(2, { "snowflake", "--epoch", "9007199254740993" }, nil, "--epoch", "9007199254740993")
                -- 2^53 is exact, but its sum with an ID's time no longer fits: the module's rule
                fails(2, { "inspect", "--epoch", "9007199254740992", "0" }, nil, "does not fit")
            end
        end)

        -- Below 5.3 every number is a double: past 2^53 - 1 is refused (above),
        -- up to it is printed exactly.
        it("numbers are printed exactly, up to 2^63 - 1 on 5.3+ and 2^53 - 1 on 5.1, 5.2, LuaJIT", function()
            local max = h.has_integers and "9223372036854775807" or "9007199254740991"
            local f = json_fields(ok_lines({ "inspect", "--json", "--epoch", max, "0" })[1])
            assert.are.equal(max, f.unix_ms)
            assert.are.equal(max, f.epoch)
            assert.is_truthy(f.time:match("%." .. max:sub(-3) .. "Z$"), f.time)
            -- the last ms of a day, whose quotient by 86400000 a double may
            -- round up to the next day: 9007199222399999 is the last below 2^53
            local days_end = { "9007199222399999", "9007199254740000" }
            if h.has_integers then
                f = json_fields(ok_lines({ "inspect", "--json", "--epoch", "9007199254740993", "0" })[1])
                assert.are.equal("9007199254740993", f.unix_ms)
                assert.are.equal("9007199254740993", f.epoch)
                -- the date by integer arithmetic too: near 2^63 a double is 1024 ms off
                local t = inspect({ "inspect", "--epoch", "9223372036854775000", "4194304" })[1]
                assert.are.equal("9223372036854775001", t.unix_ms)
                assert.are.equal("9223372036854775000", t.epoch)
                for _, ms in ipairs({ "9007199254740993", "9223372036742399999", "9223372036854775001" }) do
                    days_end[#days_end + 1] = ms
                end
            end
            days_end[#days_end + 1] = max
            for _, ms in ipairs(days_end) do
                local t = inspect({ "inspect", "--epoch", ms, "0" })[1]
                assert.are.equal(ms, t.unix_ms)
                local got = t.time
                assert.are.equal("." .. ms:sub(-3) .. "Z", got:sub(-5), got)
                -- os.date's year may not reach that far, and a 32-bit time_t
                -- (armhf) wraps at 2038: compared only where it holds 2^40 s
                local ok, date = pcall(os.date, "!%Y-%m-%dT%H:%M:%S", tonumber(ms:sub(1, -4)))
                if ok and WIDE_TIME_T then assert.are.equal(date, got:sub(1, -6), ms) end
            end
        end)

        it("output that cannot be written fails the command: exit 1, one line on stderr", function()
            for _, redirect in ipairs({ ">/dev/full", ">&-" }) do
                fails_to(redirect, 1, { "ulid", "-n", "3" }, nil, "stdout")
                fails_to(redirect, 1, { "ulid" }, nil, "stdout")
                -- more than a buffer's worth: a write fails, not only the final flush
                fails_to(redirect, 1, { "uuid4", "-n", "20000" }, nil, "stdout")
                fails_to(redirect, 1, { "relative", "k" }, { MINTID_SECRET = SECRET }, "stdout")
                fails_to(redirect, 1, { "convert", "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil, "stdout")
                for _, args in ipairs({ { "uuid1", "-n", "3" }, { "uuid6" }, { "uuid5", "dns", "a" }, { "uuid3", "url", "b" },
                    { "ksuid", "-n", "2" }, { "typeid", "user" }, { "convert", "--to", "uuid6", "c232ab00-9414-11ec-b3c8-9f6bdeced846" },
                    { "objectid", "-n", "2" }, { "xid" },
                    { "inspect", "--json", "0ujtsYcgvSTl8PAuAdqWYSMnLOv", "prefix_01h455vb4pex5vsknk084sn02q" } }) do
                    fails_to(redirect, 1, args, nil, "stdout")
                end
                fails_to(redirect, 1, { "inspect", "--json", "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, nil, "stdout")
                fails_to(redirect, 1, { "--help" }, nil, "stdout")
                fails_to(redirect, 1, { "inspect", "-h" }, nil, "stdout")
            end
        end)
    end)
end)

describe("mintid command's exit", function()
    -- LUA_INIT runs before bin/mintid: a global whose finalizer runs only
    -- when the Lua state is closed. Lua 5.1's os.exit cannot close it.
    local INIT = [[local gc = function() io.stderr:write("state closed\n") end
        if newproxy then KEEP = newproxy(true); getmetatable(KEEP).__gc = gc
        else KEEP = setmetatable({}, { __gc = gc }) end]]
    local test = (h.lua51 and not jit) and pending or it

    test("closes its Lua state on every exit status (Lua's test mode checks every block freed then)", function()
        for _, c in ipairs({ { 0, { "--help" } }, { 0, { "ulid" } }, { 1, { "inspect", "nope" } },
            { 2, { "frob" } }, { 2, { "ulid", "-n", "x" } } }) do
            local _, err, status = run(c[2], { LUA_INIT = INIT })
            local where = table.concat(c[2], " ")
            assert.are.equal(c[1], status, where .. ": " .. err)
            assert.are.equal("state closed\n", err:match("[^\n]*\n$"), where .. ": the state's finalizers never ran")
        end
    end)
end)
