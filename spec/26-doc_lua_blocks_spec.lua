-- Every ```lua block of README.md and doc/*.md is Lua a reader can copy
-- into a file and run as printed. A block that needs a host or a service
-- the suite does not have says so in an HTML comment on the line before it,
-- which the reader of the rendered page does not see:
--   <!-- runs in: nginx -->   (or haproxy, LÖVE, any words)
-- Such a block must compile; every other block must run without an error,
-- on its own: a block uses nothing that another block defined.
local h = require "helper"

local SECRET = "0123456789abcdef0123456789abcdef"

local function read(path) return assert(h.read_file(path)) end

-- The ```lua blocks of a page: { where = "path:line", code = text, host = words or nil }
local function blocks_of(path)
    local found, block, previous = {}, nil, ""
    local n = 0
    for line in (read(path) .. "\n"):gmatch("([^\n]*)\n") do
        n = n + 1
        if block then
            if line:match("^```%s*$") then
                block.code = table.concat(block.lines, "\n") .. "\n"
                found[#found + 1] = block
                block = nil
            else
                block.lines[#block.lines + 1] = line
            end
        elseif line:match("^```lua%s*$") then
            block = { where = path .. ":" .. n, lines = {}, host = previous:match("^<!%-%- runs in: (.-) %-%->$") }
        end
        if line:match("%S") then previous = line end
    end
    assert(not block, path .. ": a ```lua block that never ends, from line " .. (block and block.where or ""))
    return found
end

local function pages()
    local list = { "README.md" }
    local p = assert(io.popen("ls doc/*.md"))
    for path in p:lines() do list[#list + 1] = path end
    p:close()
    assert(#list > 1, "no page under doc/: run the suite from the checkout")
    return list
end

-- compile(code, name, env): the chunk, or nil and the message (5.1's
-- loadstring and setfenv, load's env argument from 5.2 on)
local function compile(code, name, env)
    if setfenv then
        local f, err = loadstring(code, "=" .. name)
        if f and env then setfenv(f, env) end
        return f, err
    end
    return load(code, "=" .. name, "t", env)
end

-- The globals a block runs with: the real ones, but for print (the
-- suite's output is TAP) and MINTID_SECRET, which the pages read from the
-- environment.
local function environment()
    local os_copy = setmetatable({ getenv = function(name)
        if name == "MINTID_SECRET" then return SECRET end
        return os.getenv(name)
    end }, { __index = os })
    local env = setmetatable({ os = os_copy, print = function() end }, { __index = _G })
    env._G = env
    return env
end

local all = {}
for _, path in ipairs(pages()) do
    for _, block in ipairs(blocks_of(path)) do all[#all + 1] = block end
end

describe("the ```lua blocks of README.md and doc/*.md", function()
    it("are there: at least one per page that has Lua examples", function()
        assert.is_true(#all >= 10, "the spec found " .. #all .. " ```lua blocks, want at least 10")
    end)
    for _, block in ipairs(all) do
        if block.host then
            it(block.where .. " (runs in " .. block.host .. ") compiles", function()
                local f, err = compile(block.code, block.where)
                assert.is_truthy(f, "a syntax error: " .. tostring(err))
            end)
        else
            it(block.where .. " runs as printed", function()
                local f, err = compile(block.code, block.where, environment())
                assert.is_truthy(f, "a syntax error: " .. tostring(err))
                local ok, run_err = pcall(f)
                assert.is_true(ok, "an error when run: " .. tostring(run_err))
            end)
        end
    end
end)
