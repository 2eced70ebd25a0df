-- doc/reference.md cannot drift from the module: every public name found at
-- run time (module functions, each generator's and each value's methods, the
-- options each constructor accepts) has a `### name` heading there with a
-- one-line example, every heading names something that exists, and every
-- example runs (and gives its `--> result` where it shows one).
local h = require "helper"
local mintid = require(h.module_name)

local REFERENCE = "doc/reference.md"
local SECRET = "0123456789abcdef"

local function read(path) return assert(h.read_file(path)) end

local sorted_keys = h.sorted_keys

---------------------------------------------------------------------------
-- What the reference lists: name -> { example = code, line = n }.

local function documented()
    local names, order, last = {}, {}, nil
    local n = 0
    for line in (read(REFERENCE) .. "\n"):gmatch("([^\n]*)\n") do
        n = n + 1
        local name = line:match("^### (.*)$")
        if name then
            assert(not names[name], REFERENCE .. ":" .. n .. ": '" .. name .. "' is listed twice")
            names[name] = { line = n }
            order[#order + 1] = name
            last = name
        elseif last and line:match("%S") then
            local code = line:match("^`(.+)`$")
            assert(code, REFERENCE .. ":" .. n .. ": the line after '### " .. last
                .. "' must be its example, one line of code in backticks")
            names[last].example = code
            last = nil
        end
    end
    for _, name in ipairs(order) do
        assert(names[name].example, REFERENCE .. ": '### " .. name .. "' has no example")
    end
    assert(#order > 0, REFERENCE .. ": no name listed")
    return names, order
end

-- "mintid.f" -> "module", "f"; "scope:method" -> scope, "method";
-- "ctor{option}" -> ctor, "{option}".
local function split_name(name)
    local f = name:match("^mintid%.([%a_][%w_]*)$")
    if f then return "module", f end
    local scope, method = name:match("^([%a_][%w_]*):([%a_][%w_]*)$")
    if scope then return scope, method end
    local ctor, option = name:match("^([%a_][%w_]*){([%a_][%w_]*)}$")
    if ctor then return ctor, "{" .. option .. "}" end
    return nil
end

---------------------------------------------------------------------------
-- What exists, found at run time.

-- Candidate names to probe where a table cannot be walked (an __index
-- function, LuaJIT cdata) and for options: every identifier-like string
-- literal and field name in the sources of the Lua modules and the binding.
local function candidates(extra)
    local seen = {}
    local p = assert(io.popen("find lua src bin -type f \\( -name '*.lua' -o -name '*.c' -o -name '*.h' \\) "
        .. "2>/dev/null; echo bin/mintid"))
    for path in p:lines() do
        local text = read(path)
        for word in text:gmatch('"([%a_][%w_]*)"') do seen[word] = true end
        for word in text:gmatch("[%.:]([%a_][%w_]*)") do seen[word] = true end
    end
    p:close()
    for _, word in ipairs(extra or {}) do seen[word] = true end
    return seen
end

-- Methods of an object: its metatable's __index table, plus any candidate
-- name that indexing the object finds.
local function methods_of(obj, cands)
    local found = {}
    local mt = debug.getmetatable(obj)
    if type(mt) == "table" and type(mt.__index) == "table" then
        for k, v in pairs(mt.__index) do
            if type(k) == "string" and v ~= nil then found[k] = true end
        end
    end
    for name in pairs(cands) do
        local ok, v = pcall(function() return obj[name] end)
        if ok and v ~= nil then found[name] = true end
    end
    return found
end

-- The options a constructor needs to succeed at all (a relative generator's secret).
local function base_options(ctor)
    for _, base in ipairs({ {}, { secret = SECRET } }) do
        if pcall(ctor, base) then return base end
    end
    error("no known options make a generator of this constructor: add its required ones here")
end

local function with(base, name, value)
    local t = {}
    for k, v in pairs(base) do t[k] = v end
    t[name] = value
    return t
end

-- An option is known when setting it does not raise "unknown option" (a
-- value of the wrong type raises something else: the name was recognised).
local function accepts(ctor, base, name)
    local ok, err = pcall(ctor, with(base, name, {}))
    return ok or not tostring(err):find("unknown option", 1, true)
end

-- Options of a constructor: the candidates it accepts, plus every name it
-- reads through __index (where options are read as Lua reads a field).
local function options_of(ctor, cands, documented_opts)
    local base = base_options(ctor)
    assert(not accepts(ctor, base, "no_such_option_ever"),
        "a made-up option is not refused with 'unknown option': the probe cannot work")
    local found = {}
    local names = {}
    for name in pairs(cands) do names[#names + 1] = name end
    for _, name in ipairs(documented_opts) do names[#names + 1] = name end
    for _, name in ipairs(names) do
        if accepts(ctor, base, name) then found[name] = true end
    end
    local proxy = setmetatable({}, { __index = function(_, k)
        if type(k) == "string" then found[k] = true end
        return base[k]
    end })
    pcall(ctor, proxy)
    return found
end

-- A sample text for each parse_* function that returns a value object.
local function samples()
    local g = mintid.relative_generator { secret = SECRET }
    return {
        parse_ulid = mintid.ulid(),
        parse_uuid = mintid.uuid7(),
        parse_relative = g:next("customer-17"),
        parse_ksuid = mintid.ksuid(),
        parse_objectid = mintid.objectid(),
        parse_xid = mintid.xid(),
        parse_typeid = mintid.typeid("user"),
    }
end

--- Every public name: { ["mintid.ulid"] = true, ["ulid_generator:next"] = true, ... }
local function discover(documented_names)
    local cands = candidates()
    local doc_opts = {}
    for name in pairs(documented_names) do
        local scope, member = split_name(name)
        if scope and member:sub(1, 1) == "{" then
            doc_opts[scope] = doc_opts[scope] or {}
            table.insert(doc_opts[scope], member:sub(2, -2))
        end
    end
    local names = {}
    local texts = samples()
    for _, f in ipairs(sorted_keys(mintid)) do
        -- _ffi: the C module's way in for resty.mintid (which has no such
        -- name), not an API.
        if f ~= "_ffi" then names["mintid." .. f] = true end
        local fn = mintid[f]
        -- a Sqids encoder has methods and options as a generator has
        if type(f) == "string" and (f:match("_generator$") or f == "sqids") and type(fn) == "function" then
            local base = base_options(fn)
            local g = fn(base)
            for m in pairs(methods_of(g, cands)) do names[f .. ":" .. m] = true end
            for o in pairs(options_of(fn, cands, doc_opts[f] or {})) do names[f .. "{" .. o .. "}"] = true end
        -- parse_snowflake and parse_traceparent return plain numbers and strings, no value;
        -- parse_short_uuid a UUID value, whose methods are uuid_value's
        elseif type(f) == "string" and f:match("^parse_") and type(fn) == "function" and f ~= "parse_snowflake"
                and f ~= "parse_traceparent" and f ~= "parse_short_uuid" then
            assert(texts[f], "no sample text for " .. f .. ": add one to samples()")
            local v = assert(fn(texts[f]))
            local kind = f:match("^parse_(.*)$") .. "_value"
            for m in pairs(methods_of(v, cands)) do names[kind .. ":" .. m] = true end
        end
    end
    return names
end

---------------------------------------------------------------------------
-- Running the examples.

local function load_in(code, env)
    if setfenv then
        local fn, err = loadstring(code)
        if fn then setfenv(fn, env) end
        return fn, err
    end
    return load(code, "=example", "t", env)
end

local function pack(...) return { n = select("#", ...), ... } end

local function show(v)
    if type(v) == "string" then return string.format("%q", v) end
    return tostring(v)
end

--- Runs an example; checks its `--> results` when it shows them.
local function run_example(name, code)
    local env = setmetatable({ mintid = mintid, secret = SECRET }, { __index = _G })
    local expr, expected = code:match("^(.-)%s*%-%->%s*(.*)$")
    expr = expr or code:gsub("%s*%-%-.*$", "")
    local fn, err = load_in("return " .. expr, env)
    if not fn then fn, err = load_in(expr, env) end
    assert(fn, name .. ": the example does not compile: " .. tostring(err))
    local got = pack(pcall(fn))
    assert(got[1], name .. ": the example raises: " .. tostring(got[2]))
    if not expected then return end
    local want_fn = load_in("return " .. expected, {})
    assert(want_fn, name .. ": the result after --> is not a Lua literal: " .. expected)
    local want = pack(want_fn())
    for i = 1, want.n do
        local w, g = want[i], got[i + 1]
        local same = w == g or (type(w) == "string" and g ~= nil and tostring(g) == w)
        assert(same, name .. ": result " .. i .. " is " .. show(g) .. ", the reference says " .. show(w))
    end
end

describe("reference (" .. REFERENCE .. ")", function()
    local names, order = documented()

    it("every heading is a name: mintid.f, scope:method or constructor{option}", function()
        for _, name in ipairs(order) do
            assert(split_name(name), REFERENCE .. ":" .. names[name].line .. ": '" .. name
                .. "' is not mintid.f, scope:method or constructor{option}")
        end
    end)

    it("documents every public name of the module, its generators, values and options", function()
        local missing = {}
        for _, name in ipairs(sorted_keys(discover(names))) do
            if not names[name] then missing[#missing + 1] = name end
        end
        assert(#missing == 0, "not in " .. REFERENCE .. ": " .. table.concat(missing, ", "))
    end)

    it("documents no name that does not exist", function()
        local found = discover(names)
        local stale = {}
        for _, name in ipairs(order) do
            if not found[name] then stale[#stale + 1] = name end
        end
        assert(#stale == 0, "in " .. REFERENCE .. " but not in the module: " .. table.concat(stale, ", "))
    end)

    it("each example mentions its name and runs, giving the result it shows", function()
        for _, name in ipairs(order) do
            local _, member = split_name(name)
            if member then
                local word = member:gsub("[{}]", "")
                local code = names[name].example
                assert(code:find(word, 1, true), name .. ": the example does not mention " .. word)
                run_example(name, code)
            end
        end
    end)

    it("the check can fail: a name added to the module is reported", function()
        mintid.not_documented_anywhere = function() end
        local ok = pcall(function()
            for name in pairs(discover(names)) do assert(names[name], name) end
        end)
        mintid.not_documented_anywhere = nil
        assert.is_false(ok)
    end)
end)
