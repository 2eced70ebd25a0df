-- mintid.lease.lock_file: a lease for one host and no server (router
-- firmware, a game server, the workers of one nginx). Machine id i is held
-- by an OS lock on byte i of one file, which the kernel frees when the
-- process ends, however it ends (OFD locks on Linux, LockFileEx on
-- Windows; see doc/leases.md). Each lease has a handle of its own, so two
-- leases of one process on one file never get the same id; a forked child
-- never uses (nor keeps alive) its parent's lock.
local mintid = require "mintid"
local options = require "mintid.lease.options"

local setmetatable, huge, rawget, _G = setmetatable, math.huge, rawget, _G
local open_lock_file = mintid._lock_file

local M = {}

local LockFile = {}
LockFile.__index = LockFile

local KNOWN = { path = true, machine_ids = true, layout = true, epoch = true }

local function read(opts, fn)
    options.table(opts, fn, KNOWN)
    local path = opts.path
    if type(path) ~= "string" or path == "" then
        options.raise(fn, "path must be a non-empty string, got " .. (path == "" and "\"\"" or type(path)))
    end
    -- Refused here, not by the OS layer at the first acquire().
    if path:find("\0", 1, true) then options.raise(fn, "path must hold no zero byte") end
    local layout, fence = options.layout(opts.layout, opts.epoch, fn)
    -- an id is a byte of the file: at most 2^32 - 1 whatever the layout
    local lo, hi = options.machine_ids(opts.machine_ids, fn, math.min(options.max_machine(layout), 4294967295))
    return path, lo, hi, fence
end

function M.new(opts)
    local path, lo, hi, fence = read(opts, "lock_file")
    return setmetatable({ _fence = fence, _path = path, _lo = lo, _hi = hi }, LockFile)
end

-- One lock file, one layout: the first line of its layout record,
-- PATH.layout beside the file's resolved path (whatever name, link or
-- symlink reached it), is the layout's fingerprint ("T/U/M/S/E/order"),
-- written by the first lease that finds none. Appended, so that two first
-- leases racing both write and both read the same first line: the later
-- one refuses. (A file of its own: on Windows a locked byte of the lock
-- file cannot be read.) The handle keeps the record open (h:pin), and the
-- guard stops the lease should either file be removed or replaced.
local function check_layout(h, path, mine)
    local side = h:path() .. ".layout"
    local held, err = h:pin(side)
    if held == nil then return nil, err end
    if held == false then
        local f, oerr = io.open(side, "a")
        if not f then return nil, "lock file " .. path .. ": cannot record its layout: " .. tostring(oerr) end
        f:write(mine, "\n")
        f:close()
        held, err = h:pin(side)
        if held == nil then return nil, err end
    end
    if held ~= mine then
        local what = held == "" and "a layout record whose first line is blank" or "layout " .. tostring(held)
        return nil, "lock file " .. path .. " holds " .. what .. " (" .. side .. "), this lease's is " .. mine
            .. (held == "" and ": remove " .. side .. " once no process uses the lock file"
                or ": use another lock file for another layout")
    end
    return true
end

-- The handle is closed: in a forked child only the child's copy (the
-- parent's lock stays the parent's).
function LockFile:_close()
    local h = self._file
    self._file = nil
    if h then h:close() end
end

-- The first free id in lo..hi, once minting with it is safe: its floor is
-- the wall ms read after the lock was taken (everything the id's previous
-- holder minted is at or below it), and the clock has passed it.
function LockFile:acquire()
    local fence = self._fence
    local state = fence:state()
    if state == "held" or state == "waiting" then return fence:machine_id() end
    self._released = nil
    self:_close()
    local h, err = open_lock_file(self._path, true)
    if not h then return nil, err end
    local ok, why = check_layout(h, self._path, select(2, fence:layout()))
    if not ok then
        h:close()
        return nil, why
    end
    for i = self._lo, self._hi do
        local floor_ms, lerr = h:lock(i, fence)
        if floor_ms == nil then
            h:close()
            return nil, lerr
        end
        if floor_ms then
            -- h is the fence's anchor: the lock lives as long as any
            -- generator on the fence, whatever becomes of this object.
            fence:hold(i, huge, floor_ms, h)
            -- checked once the id is held: a file removed or linked
            -- before that is refused now, one after it at a later check
            local guarded, gerr = h:guard(fence)
            if not guarded then
                fence:drop("lost")
                h:close()
                return nil, (gerr:gsub("^snowflake: lease lost: ", ""))
            end
            self._file = h
            return i
        end
    end
    h:close()
    return nil, "lock file " .. self._path .. ": every machine id in " .. self._lo .. ".." .. self._hi .. " is taken"
end

-- Nothing to renew: the kernel holds the lock while the process lives.
function LockFile:renew()
    local state = self._fence:state()
    if state == "held" or state == "waiting" then return true end
    return nil, "lock file " .. self._path .. ": lease " .. state
end

function LockFile:release()
    local fence = self._fence
    local h, id = self._file, fence:machine_id()
    -- Unlocked only while held here: in a forked child the lock is the
    -- parent's (the handle refuses anyway).
    if h and id then
        local ok, err = h:unlock(id)
        if not ok then return nil, err end
    end
    fence:drop("released")
    self._released = true -- start()'s timer does not take an id again
    self:_close()
    return true
end

function LockFile:machine_id()
    return self._fence:machine_id()
end

-- OpenResty, from init_worker_by_lua*: a lock file needs no cosocket, so
-- the id is acquired at once; if every id is taken, a timer tries again
-- each second, logging only when the outcome changes.
function LockFile:start()
    local id, err = self:acquire()
    local ngx = rawget(_G, "ngx") -- OpenResty's, read at the call
    if id or not ngx then return id, err end
    ngx.log(ngx.ERR, "mintid lease: ", err, "; retrying every second")
    local timer_every = ngx.timer.every
    local function retry(premature)
        if premature or self._released or self._fence:machine_id() then return end
        local got = self:acquire()
        if got then ngx.log(ngx.NOTICE, "mintid lease: ", self._path, ": machine id ", got, " acquired") end
    end
    local ok, terr = timer_every(1, retry)
    if not ok then ngx.log(ngx.ERR, "mintid lease: cannot start the retry timer: ", terr) end
    return nil, err
end

function LockFile:__tostring()
    local id = self._fence:machine_id()
    return "mintid.lease.lock_file (" .. self._path .. (id and (", machine id " .. id) or "") .. ")"
end

function M.holders(opts)
    local path, lo, hi = read(opts, "lock_file_holders")
    local h, err = open_lock_file(path, false)
    if h == false then return {} end -- no file: nobody holds an id
    if not h then return nil, err end
    local held, herr = h:held(lo, hi)
    h:close()
    if not held then return nil, herr end
    table.sort(held)
    return held
end

return M
