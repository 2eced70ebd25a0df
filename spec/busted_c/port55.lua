-- port55.lua SRC DEST FILE...: copies each Lua FILE of the tree SRC that
-- Lua 5.5 cannot compile into DEST, made to compile there. Busted's Lua
-- dependencies (Debian's Penlight: pl.tablex, pl.app, ...) assign to a for
-- loop's control variable, which 5.5 made read-only ("attempt to assign to
-- const variable"); its manual's way out is a local of the same name in the
-- loop's body, which this adds after the loop's `do`. Any other error, or
-- a loop whose `do` is not on its `for` line, stops the build.
local src, dest = arg[1], arg[2]
local function fail(msg)
    io.stderr:write("port55: ", msg, "\n")
    os.exit(1, true)
end

local function port(name)
    local f = assert(io.open(src .. "/" .. name, "rb"))
    local text = f:read("a")
    f:close()
    local changed = false
    for _ = 1, 100 do
        local ok, err = load(text, "=" .. name)
        if ok then return changed and text end
        local at, var = err:match(":(%d+): attempt to assign to const variable '([%w_]+)'")
        if not at then fail(err) end
        local lines = {}
        for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
        local fixed = false
        for i = tonumber(at), 1, -1 do
            local head = lines[i]:match("^(.-%f[%w]for%f[%W].-%f[%w]do%f[%W])")
            if head and (head:match("%f[%w_]" .. var .. "%f[^%w_]")) then
                lines[i] = head .. " local " .. var .. " = " .. var .. lines[i]:sub(#head + 1)
                fixed = true
                break
            end
        end
        if not fixed then fail(name .. ":" .. at .. ": no `for ... do` line of " .. var) end
        text = table.concat(lines, "\n")
        changed = true
    end
    fail(name .. ": too many loops to port")
end

for i = 3, #arg do
    local text = port(arg[i])
    if text then
        local out = dest .. "/" .. arg[i]
        os.execute("mkdir -p '" .. out:match("^(.*)/") .. "'")
        local f = assert(io.open(out, "wb"))
        f:write(text)
        f:close()
        print("ported " .. arg[i])
    end
end
