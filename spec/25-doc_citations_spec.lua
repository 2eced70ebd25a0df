-- The docs and the code cite only the project's own pages: a reader who
-- follows a cited page must find it in the checkout, not in some shared
-- folder the project was written from.

-- The tracked files (git), or every file but build/ outside a checkout.
local function files()
    local p = assert(io.popen("git ls-files 2>/dev/null || find . -path ./build -prune -o -type f -print"))
    local list = {}
    for path in p:lines() do list[#list + 1] = path:gsub("^%./", "") end
    p:close()
    assert(#list > 0, "no file of the project found: run the suite from the checkout")
    return list
end

describe("the pages the project cites", function()
    it("are pages of the project: every page a file names is a .md file of the checkout", function()
        local list = files()
        local pages = {}
        for _, path in ipairs(list) do
            local base = path:match("([^/]+)%.md$")
            if base then pages[base] = true end
        end
        local missing = {}
        for _, path in ipairs(list) do
            local f = io.open(path, "rb")
            local text = f and f:read("*a") or ""
            if f then f:close() end
            local n = 0
            for line in (text .. "\n"):gmatch("([^\n]*)\n") do
                n = n + 1
                for name in line:gmatch("([%w_%-]+)%.md%f[^%w_]") do
                    if not pages[name] then missing[#missing + 1] = path .. ":" .. n .. ": " .. name .. ".md" end
                end
            end
        end
        assert.are.same({}, missing, "a cited page that the checkout does not have")
    end)
end)
