-- spec/lease/lock_file_worker.lua PATH LO HI LAYOUT DIR NAME: a holder of a
-- lock-file lease (spec/lease/lock_file_chaos.sh) that acquires an id of
-- LO..HI (trying for 3 s), then mints Snowflake IDs of LAYOUT ("mintid"
-- or "sonyflake") into DIR/NAME.ids until DIR/stop exists or a refusal,
-- 20 s at most. DIR/NAME.held gets its id once it mints; DIR/NAME.end its
-- last word: "stopped", or the refusal that ended it.
local mintid = require "mintid"
local lease = require "mintid.lease"

local path, lo, hi, layout, dir, name = arg[1], tonumber(arg[2]), tonumber(arg[3]), arg[4], arg[5], arg[6]

local function write(file, text)
    local f = assert(io.open(dir .. "/" .. file, "w"))
    f:write(text, "\n")
    f:close()
end
local function exists(file)
    local f = io.open(dir .. "/" .. file)
    if f then f:close() end
    return f ~= nil
end
-- wall-clock seconds without LuaSocket: a static generator's ms
local clock = mintid.snowflake_generator { machine_id = 0 }
local function now_ms() return mintid.parse_snowflake(clock:next()) end

local l = lease.lock_file { path = path, machine_ids = { lo, hi }, layout = layout ~= "mintid" and layout or nil }
local started = now_ms()
local id, err = l:acquire()
while not id and now_ms() - started < 3000 do
    if err and err:find("holds layout", 1, true) then break end
    os.execute("sleep 0.05")
    id, err = l:acquire()
end
if not id then
    write(name .. ".end", "refused: " .. tostring(err))
    return
end
local g = mintid.snowflake_generator { lease = l }
local out = assert(io.open(dir .. "/" .. name .. ".ids", "w"))
local last = "stopped"
local n = 0
repeat
    for _ = 1, 200 do
        local s, why = g:next()
        if not s then
            last = why
            break
        end
        out:write(s, "\n")
        n = n + 1
    end
    if n > 0 and not exists(name .. ".held") then write(name .. ".held", id) end
until last ~= "stopped" or exists("stop") or now_ms() - started > 20000
out:close()
write(name .. ".end", last)
