-- make test-love: a LÖVE 11 game that mints entity IDs as a game does,
-- through both of mintid's modules: require "mintid" (the Lua C API) and
-- require "resty.mintid" (LuaJIT's FFI). spec/love/run.sh ships it as
-- doc/guide.md "Game engines" says (mintid.so beside the game folder,
-- resty/ and mintid/ inside it), its main.lua the guide's block of that
-- section (package.cpath, `mintid` (resty.mintid), a lock file lease
-- `machine_ids` in the save folder, its generator `flakes`) followed by this
-- file, and starts two clients at once:
--   love GAME CLIENT    (CLIENT: 1, 2, ...)
-- Each mints ULIDs, Nano IDs and Snowflake IDs in love.update, FRAMES
-- frames of PER_FRAME of each kind per module, writes them to a save file
-- with love.filesystem, reads it back and parses every ID through both
-- modules, then quits with status 0 when every check passed. Prints TAP
-- lines (unnumbered: run.sh numbers both clients' lines).
local c_mintid = require "mintid"

local FRAMES, PER_FRAME = 60, 25
local MODULES = { c = c_mintid, ffi = mintid }
local NANOID_ALPHABET = "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

local client, frame, failed = "1", 0, 0
local minted = {}        -- { kind, module, id } in mint order
local generators = { ffi = flakes } -- by module: the guide's, and one of mintid on its lease
local deterministic = {} -- by module: generators on the same clock and random hooks
local same = { count = 0, differ = {} }

local function check(ok, name, diagnostics)
    print((ok and "ok - " or "not ok - ") .. "client " .. client .. ": " .. name)
    if not ok then
        failed = failed + 1
        for _, line in ipairs(diagnostics or {}) do print("# " .. tostring(line)) end
    end
end

-- hooks(): a clock that moves a frame at a time and a random source that
-- repeats itself, the same for every call of hooks()
local function hooks()
    local ms, byte = 1700000000000, 0
    return {
        clock = function() return ms + frame * 16 end,
        random = function(n)
            local t = {}
            for i = 1, n do
                byte = (byte * 73 + 41) % 256
                t[i] = string.char(byte)
            end
            return table.concat(t)
        end,
    }
end

function love.load(args)
    client = args[1] or client
    generators.c = c_mintid.snowflake_generator { lease = machine_ids }
    for name, m in pairs(MODULES) do
        local h = hooks()
        deterministic[name] = {
            ulid = m.ulid_generator(h),
            nanoid = m.nanoid_generator(h),
            snowflake = m.snowflake_generator { machine_id = 5, clock = h.clock },
        }
    end
end

-- The save file: one entity a line, "kind module id"; read back and parsed.
local function finish()
    local lines = {}
    for i, e in ipairs(minted) do lines[i] = table.concat(e, " ", 1, 3) end
    local save = "entities-" .. client .. ".save"
    -- A math.random entity id, as games make them: LuaJIT's math.random
    -- starts from one seed in every process (run.sh compares the clients').
    lines[#lines + 1] = ("naive math %d"):format(math.random(0, 2 ^ 31 - 1))
    local written = love.filesystem.write(save, table.concat(lines, "\n") .. "\n")
    check(written, ("%s written with love.filesystem (%d entities)"):format(save, #minted))
    local text = love.filesystem.read(save) or ""

    local seen, repeats, bad, differ, count = {}, {}, {}, {}, { ulid = 0, nanoid = 0, snowflake = 0 }
    local machine = machine_ids:machine_id()
    for kind, name, id in text:gmatch("(%a+) (%a+) (%S+)\n") do
        if kind ~= "naive" then
            count[kind] = count[kind] + 1
            if seen[kind .. id] and #repeats < 5 then repeats[#repeats + 1] = kind .. " " .. id end
            seen[kind .. id] = true
            local how = {}
            for mname, m in pairs(MODULES) do
                local parsed
                if kind == "ulid" then
                    local v = m.parse_ulid(id)
                    parsed = v and tostring(v) == id and tostring(v:time())
                elseif kind == "snowflake" then
                    local ms, machine_id, seq = m.parse_snowflake(id)
                    parsed = ms and machine_id == machine and ("%s %s %s"):format(tostring(ms), machine_id, seq)
                else
                    parsed = #id == 21 and not id:find("[^" .. NANOID_ALPHABET:gsub("%-", "%%-") .. "]") and id
                end
                how[mname] = parsed
            end
            if not (how.c and how.ffi) and #bad < 5 then
                bad[#bad + 1] = ("%s from %s: %s"):format(kind, name, id)
            elseif how.c ~= how.ffi and #differ < 5 then
                differ[#differ + 1] = ("%s %s: %s (mintid), %s (resty.mintid)"):format(kind, id, how.c, how.ffi)
            end
        end
    end
    local want = FRAMES * PER_FRAME * 2
    check(count.ulid == want and count.nanoid == want and count.snowflake == want,
        ("the save file read back: %d ULIDs, %d Nano IDs, %d Snowflake IDs over %d frames (want %d each)")
            :format(count.ulid, count.nanoid, count.snowflake, frame, want))
    check(#repeats == 0, "no entity ID twice, through both modules", repeats)
    check(#bad == 0, ("every ID parses through mintid and resty.mintid (Snowflake with machine id %s)")
        :format(tostring(machine)), bad)
    check(#differ == 0, "both modules parse every ID alike (ULID time, Snowflake fields)", differ)
    check(#same.differ == 0 and same.count > 0, ("%d IDs of generators on one clock and random source: "
        .. "the same through both modules"):format(same.count), same.differ)
    return failed == 0 and 0 or 1
end

function love.update()
    frame = frame + 1
    for name, m in pairs(MODULES) do
        for _ = 1, PER_FRAME do
            minted[#minted + 1] = { "ulid", name, m.ulid() }
            minted[#minted + 1] = { "nanoid", name, m.nanoid() }
            minted[#minted + 1] = { "snowflake", name, assert(generators[name]:next()) }
        end
    end
    for _, kind in ipairs { "ulid", "nanoid", "snowflake" } do
        for _ = 1, 3 do
            local c, f = deterministic.c[kind]:next(), deterministic.ffi[kind]:next()
            same.count = same.count + 1
            if tostring(c) ~= tostring(f) and #same.differ < 5 then
                same.differ[#same.differ + 1] = ("%s: %s (mintid), %s (resty.mintid)"):format(kind, c, f)
            end
        end
    end
    if frame == FRAMES then
        love.event.quit(finish())
    end
end
