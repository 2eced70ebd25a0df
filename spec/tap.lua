-- spec/tap.lua: the TAP of the checks that read a stage's logs once its
-- servers have stopped (spec/nginx/check.lua, spec/lease/check.lua and
-- fleet_check.lua): numbered tests, a failure's diagnostics as "# " lines,
-- then the plan, and the exit status.
local M = {}
M.__index = M

-- A run whose tests are numbered from first + 1 (first: the tests its
-- shell script printed before it; 0 by default).
function M.new(first)
    return setmetatable({ n = first or 0, failed = 0 }, M)
end

function M:check(ok, name, diagnostics)
    self.n = self.n + 1
    print((ok and "ok " or "not ok ") .. self.n .. " - " .. name)
    if not ok then
        self.failed = self.failed + 1
        for _, line in ipairs(diagnostics or {}) do print("# " .. tostring(line)) end
    end
end

-- The plan; exits 1 when a test failed.
function M:finish()
    print("1.." .. self.n)
    os.exit(self.failed == 0 and 0 or 1)
end

-- The lines of the file at path ({} when there is none).
function M.lines(path)
    local t = {}
    local f = io.open(path)
    if f then
        for line in f:lines() do t[#t + 1] = line end
        f:close()
    end
    return t
end

return M
