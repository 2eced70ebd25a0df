-- spec/helper.lua: shared helpers of the busted suite.
--
-- Written for Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT alike: no integer division,
-- no bitwise operators, no goto, math.type only behind a guard. Numbers past
-- 2^53 (snowflake IDs) are handled as decimal text.
--
-- Every vector reader fails loudly on a missing file, a header that does not
-- name the expected columns, a malformed row or an empty file, so no test can
-- pass because it saw nothing.

local luassert = require "luassert"

local M = {}

-- The module the suite tests: "mintid", or "resty.mintid" (the FFI binding)
-- when spec/run.sh runs the whole suite a second time under LuaJIT with
-- MINTID_MODULE=resty.mintid.
M.module_name = os.getenv("MINTID_MODULE") or "mintid"

-- String comparison (`<`) goes through strcoll: pin the collation to bytes.
os.setlocale("C", "collate")

-- Lua 5.3+ has a 64-bit integer subtype; below that IDs past 2^53 are text.
M.has_integers = math.type ~= nil
-- Lua 5.1 and LuaJIT only call an order metamethod when both operands share
-- it, and their error messages never show a metatable's __name.
M.lua51 = _VERSION == "Lua 5.1"
-- The version of PUC Lua (LuaJIT counts as 5.1): user values are built
-- into userdata from 5.4 on, and the collector's pace is set differently
-- by 5.1-5.3, 5.4 and 5.5 (M.gc_pace).
M.lua_num = jit and 5.1 or tonumber(_VERSION:match("%d+%.%d+"))
M.builtin_user_values = M.lua_num >= 5.4
-- luaL_newmetatable sets __name (and luaL_typeerror shows it) from 5.3 on.
M.has_names = M.has_integers

--- The words of the error `value < other` raises, for a value of metatable
-- name `kind` and an operand of another kind: the binding's own argument
-- error from 5.2 on (naming other's kind from 5.3 on); Lua's compare error
-- on 5.1 and LuaJIT, which never call the metamethod.
function M.compare_error(kind, other)
    local t = type(other)
    if M.lua51 then
        return t == "userdata" and "attempt to compare two userdata values" or "attempt to compare userdata with " .. t
    end
    local mt = M.has_names and t == "userdata" and getmetatable(other)
    return "bad argument #2", kind .. " expected, got " .. (mt and mt.__name or t)
end

M.DEFAULT_ALPHABET = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"
M.MAX_MS = 281474976710655 -- 2^48 - 1, exact in a double

-- Every byte value once, in order.
M.ALL_BYTES = (function()
    local t = {}
    for b = 0, 255 do t[#t + 1] = string.char(b) end
    return table.concat(t)
end)()

-- Patterns of the text forms.
local B32 = "[0-9A-HJKMNP-TV-Z]"
M.ULID_PATTERN = "^[0-7]" .. B32:rep(25) .. "$"
M.RELATIVE_PATTERN = "^" .. B32:rep(6) .. "%-[0-7]" .. B32:rep(9) .. "%-" .. B32:rep(10) .. "$"
local HEX = "[0-9a-f]"
M.UUID_PATTERN = "^" .. HEX:rep(8) .. "%-" .. HEX:rep(4) .. "%-" .. HEX:rep(4) .. "%-"
    .. HEX:rep(4) .. "%-" .. HEX:rep(12) .. "$"

---------------------------------------------------------------------------
-- Where the vectors live: ../testdata next to this file's folder.

local function this_dir()
    local src = debug.getinfo(1, "S").source
    if src:sub(1, 1) == "@" then
        return src:sub(2):match("^(.*)[/\\][^/\\]*$")
    end
    return nil
end

M.testdata_dir = os.getenv("MINTID_TESTDATA") or ((this_dir() or "spec") .. "/../testdata")

---------------------------------------------------------------------------
-- Vector files.

local function split_tabs(line)
    local fields, start = {}, 1
    while true do
        local tab = line:find("\t", start, true)
        if not tab then
            fields[#fields + 1] = line:sub(start)
            return fields
        end
        fields[#fields + 1] = line:sub(start, tab - 1)
        start = tab + 1
    end
end

--- Read testdata/<name>: returns the rows in file order. Each row holds its
-- fields by position and by column name, plus `_where` ("name:line").
-- `columns` is the header the file must have (the README's column list).
-- The whole text of a file, or nil and the reason when it cannot be opened.
function M.read_file(path)
    local f, err = io.open(path, "rb")
    if not f then return nil, err end
    local text = f:read("*a")
    f:close()
    return text
end

function M.read_vectors(name, columns)
    local path = M.testdata_dir .. "/" .. name
    local f, err = io.open(path, "rb")
    if not f then
        error("vector file missing: " .. path .. " (" .. tostring(err) .. ")", 2)
    end
    local text = f:read("*a")
    f:close()

    local rows, header, lineno = {}, nil, 0
    for raw in (text .. "\n"):gmatch("([^\n]*)\n") do
        lineno = lineno + 1
        local line = raw:gsub("\r$", "")
        local where = name .. ":" .. lineno
        if header == nil then
            if lineno == 1 and line:sub(1, 1) == "#" then
                header = {}
                for col in line:sub(2):gmatch("%S+") do header[#header + 1] = col end
                if columns then
                    if table.concat(header, " ") ~= table.concat(columns, " ") then
                        error(where .. ": header names columns '" .. table.concat(header, " ")
                            .. "', want '" .. table.concat(columns, " ") .. "'", 2)
                    end
                end
            else
                -- a blank line before the header leaves it missing too
                error(where .. ": the first line must be the '# columns' header", 2)
            end
        elseif line:sub(1, 1) == "#" or line:match("^%s*$") then
            -- comment or blank
        else
            local fields = split_tabs(line)
            if #fields ~= #header then
                error(where .. ": " .. #fields .. " TAB-separated fields, want " .. #header
                    .. " (" .. table.concat(header, " ") .. ")", 2)
            end
            local row = { _where = where }
            for i, v in ipairs(fields) do
                row[i] = v
                row[header[i]] = v
            end
            rows[#rows + 1] = row
        end
    end
    if header == nil then error(name .. ": empty file (no header)", 2) end
    if #rows == 0 then error(name .. ": no vectors (a test would pass vacuously)", 2) end
    return rows
end

--- Group scenario rows (column `scenario`) into runs of consecutive lines
-- with the same name, in file order: { {name=, rows={...}}, ... }.
function M.scenarios(name, columns)
    local rows = M.read_vectors(name, columns)
    local runs, current = {}, nil
    for _, row in ipairs(rows) do
        if current == nil or current.name ~= row.scenario then
            current = { name = row.scenario, rows = {} }
            runs[#runs + 1] = current
        end
        current.rows[#current.rows + 1] = row
    end
    return runs
end

--- Call check(row, where) for every row of testdata/<name> (read_vectors),
-- in file order. Returns how many rows were checked: all of them, never 0
-- (read_vectors refuses a file without rows).
function M.each_vector(name, columns, check)
    local rows = M.read_vectors(name, columns)
    for _, row in ipairs(rows) do check(row, row._where) end
    return #rows
end

---------------------------------------------------------------------------
-- Bytes.

--- Lowercase hex to bytes; `-` is the empty string.
function M.fromhex(h)
    if h == "-" then return "" end
    if #h % 2 ~= 0 or h:find("[^0-9a-fA-F]") then
        error("malformed hex '" .. h .. "'", 2)
    end
    return (h:gsub("..", function(pair) return string.char(tonumber(pair, 16)) end))
end

--- The keys of t, sorted.
function M.sorted_keys(t)
    local list = {}
    for k in pairs(t) do list[#list + 1] = k end
    table.sort(list)
    return list
end

--- Whether every byte of text is one of alphabet's.
function M.only_symbols_of(text, alphabet)
    local allowed = {}
    for i = 1, #alphabet do allowed[alphabet:byte(i)] = true end
    for i = 1, #text do
        if not allowed[text:byte(i)] then return false end
    end
    return true
end

--- Bytes to lowercase hex; the empty string is `-` (as in the vector files).
function M.tohex(s)
    if s == "" then return "-" end
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

--- Byte-wise comparison, whatever the locale: -1, 0 or 1.
function M.bytes_cmp(a, b)
    local n = math.min(#a, #b)
    for i = 1, n do
        local x, y = a:byte(i), b:byte(i)
        if x ~= y then return x < y and -1 or 1 end
    end
    if #a == #b then return 0 end
    return #a < #b and -1 or 1
end

--- The escapes of the hand-kept invalid lists: \xHH one byte, \t TAB,
-- \\ backslash, \s space; everything else is literal.
function M.unescape(s)
    local out, i = {}, 1
    while i <= #s do
        local c = s:sub(i, i)
        if c == "\\" then
            local n = s:sub(i + 1, i + 1)
            if n == "x" then
                local hh = s:sub(i + 2, i + 3)
                if not hh:match("^%x%x$") then
                    error("malformed \\x escape in '" .. s .. "'", 2)
                end
                out[#out + 1] = string.char(tonumber(hh, 16))
                i = i + 4
            elseif n == "t" then
                out[#out + 1] = "\t"; i = i + 2
            elseif n == "\\" then
                out[#out + 1] = "\\"; i = i + 2
            elseif n == "s" then
                out[#out + 1] = " "; i = i + 2
            else
                out[#out + 1] = "\\"; i = i + 1
            end
        else
            out[#out + 1] = c
            i = i + 1
        end
    end
    return table.concat(out)
end

--- Big-endian bytes as a number; only for values below 2^53.
function M.be_number(s)
    local v = 0
    for i = 1, #s do v = v * 256 + s:byte(i) end
    if v >= 9007199254740992 then error("be_number: value past 2^53", 2) end
    return M.int(v)
end

---------------------------------------------------------------------------
-- Numbers.

--- The integer subtype where Lua has one (2^48 is a float on 5.3+).
function M.int(x)
    if math.tointeger then
        local i = math.tointeger(x)
        if i == nil then error("not an integer: " .. tostring(x), 2) end
        return i
    end
    return x
end

--- A decimal column as a number; it must be exact (below 2^53 in magnitude).
function M.num(s)
    if not s:match("^%-?%d+$") then error("not a decimal integer: '" .. s .. "'", 2) end
    local digits = s:gsub("^%-", ""):gsub("^0+", "")
    if #digits > 16 or (#digits == 16 and digits > "9007199254740992") then
        error("decimal " .. s .. " is past 2^53: compare it as text", 2)
    end
    return M.int(tonumber(s))
end

--- A decimal column exactly as this Lua can hold it, also past 2^53 (a clock
-- reading of a range vector): an integer on 5.3+, an int64 cdata on LuaJIT,
-- a double that holds it exactly on 5.1/5.2 (else an error).
function M.exact_int(s)
    local ok, v = pcall(M.num, s)
    if ok then return v end
    if M.has_integers then return math.tointeger(tonumber(s)) end
    if jit then return (loadstring or load)("return " .. s .. "LL")() end
    v = tonumber(s)
    if string.format("%.0f", v) ~= s then error("decimal " .. s .. " is not exact in a double", 2) end
    return v
end

--- Canonical decimal text of a non-negative integer value: an integer, an
-- integer-valued float below 2^53, or decimal text.
function M.dec(v)
    local t = type(v)
    if t == "string" then
        if not v:match("^%d+$") then error("not decimal text: '" .. v .. "'", 2) end
        local s = v:gsub("^0+", "")
        if s == "" then s = "0" end
        return s
    elseif t == "number" then
        if math.type and math.type(v) == "integer" then return string.format("%d", v) end
        if v ~= math.floor(v) or v > 9007199254740992 or v < -9007199254740992 then
            error("not an exact integer: " .. tostring(v), 2)
        end
        return string.format("%.0f", v)
    end
    error("expected an integer or decimal text, got " .. t, 2)
end

--- Compare two non-negative decimal texts: -1, 0 or 1.
function M.dec_cmp(a, b)
    a, b = M.dec(a), M.dec(b)
    if #a ~= #b then return #a < #b and -1 or 1 end
    if a == b then return 0 end
    return M.bytes_cmp(a, b)
end

--- a * m + k as decimal text, for decimal text a and small integers m, k.
function M.dec_mul_add(a, m, k)
    a = M.dec(a)
    local digits, carry = {}, k
    for i = #a, 1, -1 do
        local d = (a:byte(i) - 48) * m + carry
        local r = d % 10
        digits[#digits + 1] = string.format("%d", r)
        carry = math.floor((d - r) / 10)
    end
    while carry > 0 do
        local r = carry % 10
        digits[#digits + 1] = string.format("%d", r)
        carry = math.floor((carry - r) / 10)
    end
    local out = {}
    for i = #digits, 1, -1 do out[#out + 1] = digits[i] end
    return M.dec(table.concat(out))
end

M.INT63_MAX = "9223372036854775807"

--- The snowflake ID (ms_since_epoch << 22 | machine_id << 12 | seq) as decimal.
function M.snowflake_dec(ms_since_epoch, machine_id, seq)
    return M.dec_mul_add(M.dec_mul_add(M.dec(ms_since_epoch), 1024, machine_id), 4096, seq)
end

--- A decimal ID as this Lua's native snowflake argument: an integer on 5.3+
-- when it fits in a signed 64-bit integer, else nil.
function M.native_int(decimal)
    if not M.has_integers or M.dec_cmp(decimal, M.INT63_MAX) > 0 then return nil end
    local v = math.tointeger(tonumber(decimal))
    assert(v ~= nil and string.format("%d", v) == M.dec(decimal), "native_int " .. decimal)
    return v
end

--- The forms a Snowflake ID of decimal text is passed in: the text, and
-- the native integer where this Lua has one that holds it.
function M.id_forms(decimal)
    local forms = { decimal }
    local native = M.native_int(decimal)
    if native then forms[#forms + 1] = native end
    return forms
end

--- parse_snowflake(id, epoch) of the module under test, which must succeed:
-- the timestamp, machine id and sequence.
function M.snowflake_parts(id, epoch)
    local ts, mid, seq = require(M.module_name).parse_snowflake(id, epoch)
    luassert(ts ~= nil, "parse_snowflake(" .. tostring(id) .. "): nil, " .. tostring(mid))
    return ts, mid, seq
end

---------------------------------------------------------------------------
-- Injected clocks and random sources.

--- A clock whose reading the test sets: c.now = ms before each call.
-- c.fn is the `clock` option; c.calls counts readings.
function M.clock_var(label)
    local c = { calls = 0 }
    function c.fn()
        c.calls = c.calls + 1
        if c.now == nil then error((label or "clock") .. ": clock read with no time set", 0) end
        return c.now
    end
    return c
end

--- A clock returning the values of `list` in turn; reading past the end is an error.
function M.clock_list(list, label)
    local c = { calls = 0 }
    function c.fn()
        c.calls = c.calls + 1
        local v = list[c.calls]
        if v == nil then
            error((label or "clock") .. ": clock read " .. c.calls .. " times, the list has "
                .. #list .. " readings", 0)
        end
        return v
    end
    return c
end

--- A scripted random source. r.expect(bytes, where) queues one draw the code
-- must make next (its n must equal #bytes); r.fn is the `random` option. A
-- draw with nothing queued, or with a different n, is recorded and raised.
-- r.assert_drained(where) checks every queued draw happened (call it after
-- each call that should have drawn, and at the end of a scenario).
function M.random_script(label)
    local r = { queue = {}, head = 1, draws = 0, failures = {} }
    local function fail(msg)
        r.failures[#r.failures + 1] = msg
        error(msg, 0)
    end
    function r.fn(n)
        local item = r.queue[r.head]
        if item == nil then
            fail((label or "random") .. ": unexpected random(" .. tostring(n)
                .. ") after " .. r.draws .. " draws (the vectors expect no draw here)")
        end
        if n ~= #item.bytes then
            fail(item.where .. ": random(" .. tostring(n) .. ") but the vector's draw is "
                .. #item.bytes .. " bytes")
        end
        r.head = r.head + 1
        r.draws = r.draws + 1
        return item.bytes
    end
    function r.expect(bytes, where)
        r.queue[#r.queue + 1] = { bytes = bytes, where = where or label or "random" }
    end
    function r.expect_hex(hex, where)
        r.expect(M.fromhex(hex), where)
    end
    function r.pending()
        return #r.queue - r.head + 1
    end
    function r.assert_drained(where)
        luassert.are.equal(0, #r.failures, (where or label or "random") .. ": "
            .. tostring(r.failures[1]))
        if r.head <= #r.queue then
            error((where or label or "random") .. ": an expected draw did not happen ("
                .. r.queue[r.head].where .. ", " .. #r.queue[r.head].bytes .. " bytes)", 2)
        end
    end
    return r
end

--- A generator made by new(options) whose `clock` is a clock_var and whose
-- `random` is a random_script, plus any other `options`.
-- Returns the generator, the clock and the random script.
function M.scripted(new, label, options)
    local clock, rnd = M.clock_var(label), M.random_script(label)
    local opts = {}
    for k, v in pairs(options or {}) do opts[k] = v end
    opts.clock, opts.random = clock.fn, rnd.fn
    return new(opts), clock, rnd
end

--- A random source that must never be called.
function M.no_random(label)
    return function(n)
        error((label or "random") .. ": unexpected random(" .. tostring(n) .. ")", 0)
    end
end

---------------------------------------------------------------------------
-- Result checks.

--- A `nil, message` return: nil (not false), a one-line non-empty message
-- containing `reason` (plain find) when given. Returns the message.
function M.assert_bad_data(value, msg, reason, where)
    where = where or "?"
    luassert(value == nil, where .. ": want nil, message; got a value: " .. tostring(value))
    luassert(type(msg) == "string", where .. ": want a message string, got " .. type(msg))
    luassert(msg ~= "", where .. ": empty message")
    luassert(not msg:find("[\r\n]"), where .. ": message is not one line: " .. msg)
    if reason then
        luassert(msg:find(reason, 1, true) ~= nil,
            where .. ": message '" .. msg .. "' does not contain '" .. reason .. "'")
    end
    return msg
end

--- The call must raise; its message must contain each of the given
-- substrings (plain find). Returns the message.
function M.raises(fn, ...)
    local subs = { ... }
    -- Any error would do otherwise, "attempt to call a nil value" included.
    if #subs == 0 then error("h.raises needs the message it expects", 2) end
    local results = { pcall(fn) }
    if results[1] then
        error("expected an error" .. (subs[1] and (" containing '" .. subs[1] .. "'") or "")
            .. ", but the call returned " .. tostring(results[2]), 2)
    end
    local msg = tostring(results[2])
    for _, s in ipairs(subs) do
        if not msg:find(s, 1, true) then
            error("error message '" .. msg .. "' does not contain '" .. s .. "'", 2)
        end
    end
    return msg
end

--- The call must reject its input, either way the API allows (a raised
-- error or `nil, message`), and never return a value. Returns the message.
function M.rejects(fn, where)
    local results = { pcall(fn) }
    if not results[1] then return tostring(results[2]) end
    return M.assert_bad_data(results[2], results[3], nil, where)
end

--- Check a generator call's return against a scenario's `expect` column:
-- text (or decimal), error:overflow or error:range. `range_reason` is the
-- substring a range message must contain.
function M.check_expect(expect, got, msg, where, range_reason)
    if expect == "error:overflow" then
        M.assert_bad_data(got, msg, "counter overflow", where)
    elseif expect == "error:range" then
        M.assert_bad_data(got, msg, range_reason, where)
    else
        luassert(got ~= nil, where .. ": want " .. expect .. ", got nil, " .. tostring(msg))
        luassert.are.equal(expect, got, where)
    end
end

--- Describe an input for a failure message: quoted text, or a list of
-- arguments.
local function show(input)
    if type(input) == "string" then return string.format("%q", input) end
    if type(input) == "table" then
        local parts = {}
        for i = 1, #input do parts[i] = tostring(input[i]) end
        return "(" .. table.concat(parts, ", ") .. ")"
    end
    return tostring(input)
end

--- For each { input, message } of `cases`, fn(input) must return nil and
-- exactly that message (with `contains`, a message containing it).
function M.each_bad_input(fn, cases, contains)
    luassert(#cases > 0, "each_bad_input: no cases")
    for _, c in ipairs(cases) do
        local where = show(c[1]) .. " -> " .. c[2]
        local v, msg = fn(c[1])
        M.assert_bad_data(v, msg, contains and c[2] or nil, where)
        if not contains then luassert.are.equal(c[2], msg, where) end
    end
end

--- fn(bytes) returns nil and a one-line message for zero bytes of each
-- length of `lengths`.
function M.assert_bad_lengths(fn, lengths, name)
    luassert(#lengths > 0, name .. ": no length to check")
    for _, n in ipairs(lengths) do
        local v, msg = fn(("\0"):rep(n))
        M.assert_bad_data(v, msg, nil, name .. " of " .. n .. " bytes")
    end
end

--- fn(ms) at ms -1 and at 2^48 returns nil and the timestamp range message
-- of `kind` ("ULID", "UUIDv7", "relative ID").
function M.assert_ms_out_of_range(kind, fn)
    M.each_bad_input(fn, {
        { -1, kind .. " timestamp -1 out of range 0..281474976710655" },
        { M.int(2 ^ 48), kind .. " timestamp 281474976710656 out of range 0..281474976710655" },
    })
end

--- `times` calls of fn each return nil and exactly `message`: an error
-- leaves a generator's state unchanged, so the same call fails the same way.
function M.assert_fails_alike(fn, times, message)
    for i = 1, times do
        local v, msg = fn()
        local where = "call " .. i .. " of " .. times .. " -> " .. message
        M.assert_bad_data(v, msg, nil, where)
        luassert.are.equal(message, msg, where)
    end
end

---------------------------------------------------------------------------
-- Checks driven by whole vector files.

--- Every row of a hand-kept invalid list (testdata/README.md: columns input
-- reason, input with escapes): each of `decoders` (name -> function) returns
-- nil and a one-line message containing the reason. Returns the row count.
function M.each_invalid(name, decoders)
    local names = {}
    for fname in pairs(decoders) do names[#names + 1] = fname end
    table.sort(names)
    luassert(#names > 0, name .. ": no decoder to check")
    return M.each_vector(name, { "input", "reason" }, function(r, w)
        local input = M.unescape(r.input)
        for _, fname in ipairs(names) do
            local v, msg = decoders[fname](input)
            M.assert_bad_data(v, msg, r.reason, w .. " " .. fname)
        end
    end)
end

--- Replay every scenario of a generator scenario file (testdata/README.md
-- "Generator scenarios") on one new generator per scenario, with a settable
-- clock and a scripted random source. Each row sets the clock to now_ms,
-- queues its random_hex draw (`-`, or a file without that column: the call
-- must not draw), makes one call, and checks the clock was read, the queued
-- draw (and no other) happened, and the result. `s` holds:
--   file, columns  the vector file and its header;
--   draw           the bytes of one draw (each random_hex must be that long);
--   same           columns that must keep one value through a scenario;
--   new(options)   makes the generator (options has its clock and random);
--   options(first_row)  more options of a scenario's generator;
--   call(g, row)   one call (default g:next());
--   expect(row, got, msg, where)  checks the result (default: check_expect,
--                  a range message containing "out of range");
--   check(g, row, id, where)      more checks of each ID returned.
-- Returns the number of rows replayed: all of them, never 0 (read_vectors
-- refuses a file without rows).
function M.replay_scenarios(s)
    local scenarios, replayed = M.scenarios(s.file, s.columns), 0
    for _, sc in ipairs(scenarios) do
        local first = sc.rows[1]
        local g, clock, rnd = M.scripted(s.new, sc.name, s.options and s.options(first))
        for _, r in ipairs(sc.rows) do
            local w = r._where .. " (" .. sc.name .. ")"
            for _, col in ipairs(s.same or {}) do
                luassert.are.equal(first[col], r[col], w .. ": one " .. col .. " per scenario")
            end
            clock.now = M.exact_int(r.now_ms)
            if r.random_hex ~= nil and r.random_hex ~= "-" then
                local bytes = M.fromhex(r.random_hex)
                luassert.are.equal(s.draw, #bytes, w .. ": a draw is " .. tostring(s.draw) .. " bytes")
                rnd.expect(bytes, w)
            end
            local before = clock.calls
            local got, msg
            if s.call then got, msg = s.call(g, r) else got, msg = g:next() end
            luassert.is_true(clock.calls > before, w .. ": the clock was not read")
            rnd.assert_drained(w)
            if s.expect then
                s.expect(r, got, msg, w)
            else
                M.check_expect(r.expect, got, msg, w, "out of range")
            end
            if got ~= nil and s.check then s.check(g, r, got, w) end
            replayed = replayed + 1
        end
        rnd.assert_drained(sc.name)
    end
    return replayed
end

---------------------------------------------------------------------------
-- Properties.

--- fn() called `count` times must give IDs matching `pattern` (the first and
-- the last are checked), each sorting byte-wise after the one before, so
-- none repeats: a strictly increasing list holds no value twice. Plain
-- errors in the loop: it runs 100,000 times in places.
function M.assert_strictly_increasing(fn, count, pattern, label)
    local prev = fn()
    luassert.is_truthy(prev:match(pattern), label .. ": " .. prev)
    for i = 2, count do
        local id = fn()
        if M.bytes_cmp(prev, id) >= 0 then
            error(label .. ": ID " .. i .. " " .. id .. " does not sort after " .. prev, 0)
        end
        prev = id
    end
    luassert.is_truthy(prev:match(pattern), label .. ": " .. prev)
end

---------------------------------------------------------------------------
-- Processes.

--- Runs fn() in a forked child (spec/native/testfork.c) and returns what it returned (a string) in
-- the parent; a child that raised, or did not exit, fails the test. The
-- child never returns into the test runner: it always _exits.
-- The user values 1..8 of the userdata u set to nil through the debug
-- library (Lua 5.4: debug.setuservalue; below, in the table or
-- environment that holds them).
function M.clear_user_values(u)
    if M.builtin_user_values then
        for i = 1, 8 do debug.setuservalue(u, nil, i) end
        return
    end
    -- (On 5.1 a userdata without values of its own has its creator's
    -- environment, the globals: only the slots 1..8 are cleared.)
    local t = (debug.getuservalue or debug.getfenv)(u)
    if type(t) == "table" then
        for i = 1, 8 do t[i] = nil end
    end
end

function M.in_child(fn)
    local testfork = require "testfork"
    local path = os.tmpname()
    local pid = testfork.fork()
    if pid == 0 then
        local ok, out = pcall(fn)
        local f = io.open(path, "wb")
        if f then
            f:write(tostring(out))
            f:close()
        end
        testfork.exit(ok and f and 0 or 1)
    end
    local status = testfork.wait(pid)
    local f = assert(io.open(path, "rb"))
    local out = f:read("*a")
    f:close()
    os.remove(path)
    assert(status == 0, "the child failed: " .. out)
    return out
end

---------------------------------------------------------------------------
-- The command-line tool bin/mintid, run as a subprocess by the Lua running
-- this suite (MINTID_LUA: another, e.g. s390x's under qemu), on the module
-- the suite tests: LUA_PATH and LUA_CPATH are this process's package.path
-- and cpath, which busted may have set from .busted, not the environment.

local CLI_LUA = os.getenv("MINTID_LUA") or (jit and "luajit") or ("lua" .. _VERSION:match("%d+%.%d+"))
-- The command of this suite's Lua, for a spec that runs a script in a process of its own.
M.lua_command = CLI_LUA

local function shell_quote(s)
    return "'" .. s:gsub("'", "'\\''") .. "'"
end

--- Runs `mintid ARGS...` (a list of words); `env` is a table of environment
-- variables to set (false unsets); `redirect` a shell redirection of its
-- stdout (">/dev/full"). Returns stdout, stderr and the exit status.
-- io.popen's close gives no status on Lua 5.1: the shell echoes it last.
-- Variables set for every run (under `env`): a spec sets them in its setup
-- and empties the table in its teardown (XDG_RUNTIME_DIR, where
-- `mintid snowflake` keeps its lock files, pointed at a folder of its own).
M.cli_env = {}

--- The shell command that runs `mintid ARGS...` with `env` (as cli_run).
function M.cli_command(args, env)
    local words = {}
    local vars = { LUA_PATH = package.path, LUA_CPATH = package.cpath }
    for name, value in pairs(M.cli_env) do vars[name] = value end
    for name, value in pairs(env or {}) do vars[name] = value end
    for name, value in pairs(vars) do
        words[#words + 1] = value and (name .. "=" .. shell_quote(value)) or ("-u " .. name)
    end
    table.sort(words)
    local cmd = { "env", table.concat(words, " "), CLI_LUA, "bin/mintid" }
    for _, a in ipairs(args) do cmd[#cmd + 1] = shell_quote(a) end
    return table.concat(cmd, " ")
end

function M.cli_run(args, env, redirect)
    local cmd = M.cli_command(args, env) .. (redirect and (" " .. redirect) or "")
    local errfile = os.tmpname()
    local p = assert(io.popen(cmd .. " 2>" .. errfile .. '; echo "exit:$?"'))
    local out = p:read("*a")
    p:close()
    local f = assert(io.open(errfile, "rb"))
    local err = f:read("*a")
    f:close()
    os.remove(errfile)
    local status = tonumber(out:match("exit:(%d+)\n$"))
    assert(status, "no exit status in the output of " .. table.concat(args, " "))
    return (out:gsub("exit:%d+\n$", "")), err, status
end

--- Runs the command, its stdout sent to `redirect` (nil: captured), and
-- expects `status` with exactly one line on stderr containing each of the
-- given strings; returns stdout and that line.
function M.cli_fails_to(redirect, status, args, env, ...)
    local out, err, got = M.cli_run(args, env, redirect)
    local where = table.concat(args, " ") .. (redirect and (" " .. redirect) or "")
    luassert.are.equal(status, got, where .. ": " .. err)
    luassert.is_truthy(err:match("^mintid: [^\n]+\n$"), where .. ": want one line on stderr, got: " .. err)
    for _, s in ipairs({ ... }) do
        luassert.is_truthy(err:find(s, 1, true), where .. ": '" .. err .. "' does not contain '" .. s .. "'")
    end
    return out, err
end

---------------------------------------------------------------------------
-- Finalizers and the collector.

--- An object whose finalizer calls f (5.1/LuaJIT: a newproxy).
function M.finalizer(f)
    if newproxy then
        local p = newproxy(true)
        getmetatable(p).__gc = f
        return p
    end
    return setmetatable({}, { __gc = f })
end

--- Whether cycle_per_allocation runs a pending finalizer at every
-- allocation, as the finalizer storm (spec/storm) needs: on 5.4, 5.1 and
-- LuaJIT. The collectors of 5.2 and 5.3 run none at the allocations of a
-- call, or not at each, once other finalizers are pending.
M.finalizer_at_each_allocation = _VERSION ~= "Lua 5.2" and _VERSION ~= "Lua 5.3"
M.NO_FINALIZER_AT_EACH_ALLOCATION = "this Lua's collector runs no finalizer at each allocation of a call"

--- fn() with a whole cycle of the collector at every allocation (a step
-- with no work limit, the pause 0, as spec/storm does) and the JIT off
-- (LuaJIT runs no finalizer on a trace); returns what fn returns (two
-- values), and raises what it raises, once the collector is as it was.
function M.cycle_per_allocation(fn)
    if jit then jit.off(); jit.flush() end
    M.gc_pace(0, M.lua_num == 5.4 and 1000 or ((M.lua51 or M.lua_num >= 5.5) and 0 or 1e6), 40)
    collectgarbage("step", 0)
    local ok, a, b = pcall(fn)
    M.gc_pace()
    if jit then jit.on() end
    collectgarbage()
    assert(ok, a)
    return a, b
end

--- The collector's pace: the pause and the step multiplier in percent and,
-- from 5.4 on, a step of 2^stepsize_log2 bytes; with no arguments, the
-- version's defaults. 5.5 sets each through collectgarbage("param") (its
-- defaults read here, before any change), 5.1-5.4 through setpause and
-- setstepmul, 5.4 its step size through "incremental". A multiplier of 0
-- makes each step a whole cycle on 5.1 and on 5.5.
local GC55 = M.lua_num >= 5.5 and {
    pause = collectgarbage("param", "pause"),
    stepmul = collectgarbage("param", "stepmul"),
    stepsize = collectgarbage("param", "stepsize"),
}
function M.gc_pace(pause, stepmul, stepsize_log2)
    if GC55 then
        collectgarbage("incremental")
        collectgarbage("param", "pause", pause or GC55.pause)
        collectgarbage("param", "stepmul", stepmul or GC55.stepmul)
        collectgarbage("param", "stepsize", stepsize_log2 and math.floor(2 ^ math.min(stepsize_log2, 30)) or GC55.stepsize)
    else
        collectgarbage("setpause", pause or 200)
        collectgarbage("setstepmul", stepmul or (M.lua_num >= 5.4 and 100 or 200))
        -- (5.4's "incremental" takes a 0 as "unchanged": no pause of 0 there)
        if M.lua_num >= 5.4 then collectgarbage("incremental", 0, 0, stepsize_log2 or 13) end
    end
end

--- n objects whose finalizers call f, one at each collection cycle from
-- the next on: the table returned holds them, and each finalizer lets go
-- of the next one. Hold it while they should run. They are all made here,
-- outside any finalizer: Lua 5.2 gives no finalizer to an object made in
-- one, so a finalizer that makes its own successor runs once there.
function M.finalizer_chain(n, f)
    local held = {}
    for i = 1, n do
        held[i] = M.finalizer(function()
            held[i + 1] = nil
            f()
        end)
    end
    held[1] = nil
    return held
end

--- pcall(g.next, g, arg) under cycle_per_allocation while a finalizer mints
-- from g at every cycle, at most cap times (so that a call that would make
-- its ID again forever returns): pcall's two results and the mints made.
function M.next_while_a_finalizer_mints(g, arg, cap)
    local minted, on = 0, false
    local chain = M.finalizer_chain(cap, function()
        if on then
            minted = minted + 1
            pcall(g.next, g, arg)
        end
    end)
    local ok, err = M.cycle_per_allocation(function()
        on = true
        local ok_, err_ = pcall(g.next, g, arg)
        on = false
        return ok_, err_
    end)
    chain[#chain + 1] = false -- held until here
    return ok, err, minted
end

return M
