-- The calls the storm runs: every public function of the module, one
-- section per kind. A case builds one instance from its helpers `h`
-- (deterministic: the calm run and the storm run build the same one):
--   h.n(k), h.pick(list)   choices, fixed per instance (list.n, when set,
--                          is its length: a list may hold nil)
--   h.clock([ms]), h.random([byte])   hooks that return the same sequence in
--                          both runs, and poke the storm whenever they run
--   h.opts(t)              t, or a proxy that reads it through __index (poking)
--   h.use(g)               g is the object the steps use: the storm may close it,
--                          and then every later step must fail as closed
--   h.mint(fn)             fn mints an ID from g, and is returned: the storm may
--                          call it from a finalizer during any step, and no ID
--                          of it (as a step or from the finalizer) may repeat
--   h.expect(text)         a clean error holding text may take the place of the
--                          calm result of a step under the storm (any other
--                          error the calm run did not give fails)
--   h.see(v)               v's methods count as public functions to cover
--   h.step(name, fn [, like])   one call under test; `like` maps a result
--                          that is not deterministic (the OS clock or pool)
--                          to what is (its shape, its tag, its machine id)
-- main.lua runs each step calm and under the storm and compares.
return function(M, on)
    local section, case, ffi, poke = on.section, on.case, on.ffi, on.poke

    ---------------------------------------------------------------------------
    -- Inputs.

    local SECRETS = { "0123456789abcdef", "a secret of thirty-two bytes...." }
    local SALTS = { "", "orders" }
    local ALL_BYTES = {}
    for b = 0, 255 do ALL_BYTES[#ALL_BYTES + 1] = string.char(b) end
    ALL_BYTES = table.concat(ALL_BYTES)
    -- Nano ID sizes on both sides of 256, where the bindings switch buffers.
    local SIZES = { 1, 21, 255, 256, 257, 300, 1000 }
    local ALPHABETS = { n = 5, nil, "ab", "x", "0123456789abcdef", ALL_BYTES }

    -- Relative-ID keys: strings, integers, floats that are integers, and
    -- what a key may not be. Under LuaJIT also int64 cdata (tostring runs
    -- inside the call) and cdata whose __tostring is Lua code.
    local KEYS = { "customer-17", "", ("k"):rep(300), 42, -7, 0, 2 ^ 53, 42.5, true }
    local NUMBERS = { 0, 5, 1469922850259, -1, 2 ^ 53, 1.5 } -- ms, tags, rand
    if ffi then
        local texts = { "nope", "5LL", "-3LL" }
        local Key = ffi.metatype("struct { int storm_text; }", {
            __tostring = function(k) poke(); return texts[k.storm_text] end,
        })
        for i = 1, #texts do KEYS[#KEYS + 1] = Key(i) end
        KEYS[#KEYS + 1] = ffi.new("int64_t", -12)
        KEYS[#KEYS + 1] = ffi.new("uint64_t", 99)
        KEYS[#KEYS + 1] = ffi.new("uint64_t", 0) - 1 -- 2^64 - 1: no int64
        NUMBERS[#NUMBERS + 1] = ffi.new("int64_t", 1469922850259)
        NUMBERS[#NUMBERS + 1] = ffi.new("uint64_t", 7)
        SIZES[#SIZES + 1] = ffi.new("int64_t", 300)
        SIZES[#SIZES + 1] = ffi.new("uint64_t", 21)
    end

    local ULIDS = { "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01arz3ndektsv4rrffq69g5fav", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAU", 5 }
    local UUIDS = { "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "017F22E2-79B0-7CC3-98C4-DC0C0C07398F",
        "01563e3a-b5d3-d676-4c61-efb99302bd5b", "f47ac10b-58cc-4372-a567-0e02b2c3d479",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398", "017f22e279b07cc398c4dc0c0c07398f", 5 }
    local RELATIVES = { "3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8", "3f8kqz01j8y4q9m3x3b0n6e3p8", "000001-01ARZ3NDEK-0000000005",
        "3F8KQZ-01J8Y4Q9M3-X3B0N6E3P", "3F8KQZ_01J8Y4Q9M3-X3B0N6E3P8", 1.5 }
    local SNOWFLAKES = { "4096", "1541815603606036480", "9223372036854775807", "18446744073709551615",
        "18446744073709551616", "-1", "12a", "", 4096, 4194308096, -5, 2.5, {} }
    local EPOCHS = { n = 6, nil, 0, 1288834974657, -5, "x", 2 ^ 60 }
    local GEN_EPOCHS = { n = 3, nil, 0, 1288834974657 }
    -- Layouts: presets, a table (read through __index by h.opts), bad ones.
    local function sonyflake_table(h)
        return h.opts { time_bits = 39, time_unit_ms = 10, machine_bits = 16, seq_bits = 8, epoch = 1409529600000,
                        order = "time-seq-machine" }
    end
    local LAYOUTS = { "mintid", "sonyflake", "instagram", "discord", "nope", { time_bits = 65, machine_bits = 0,
                      seq_bits = 1 }, { time_bits = 41, machine_bits = 4, seq_bits = 8, epoch = 1600000000000 } }
    if math.type then SNOWFLAKES[#SNOWFLAKES + 1] = math.tointeger(1541815603606036480) end
    if ffi then
        SNOWFLAKES[#SNOWFLAKES + 1] = ffi.new("uint64_t", 0) - 1
        SNOWFLAKES[#SNOWFLAKES + 1] = ffi.new("int64_t", 4096)
        EPOCHS.n = EPOCHS.n + 1
        EPOCHS[EPOCHS.n] = ffi.new("int64_t", 1288834974657)
        GEN_EPOCHS.n = GEN_EPOCHS.n + 1
        GEN_EPOCHS[GEN_EPOCHS.n] = EPOCHS[EPOCHS.n]
    end
    local RANGES = { "FJCZPD-", "fjczpd-", "3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8", "FJCZPD", "FJCZP!-", 7 }
    local KSUIDS = { "0ujtsYcgvSTl8PAuAdqWYSMnLOv", "000000000000000000000000000", "aWgEPTl1tmebfsQzFP4bxwgy80V",
        "aWgEPTl1tmebfsQzFP4bxwgy80W", "0ujtsYcgvSTl8PAuAdqWYSMnLO", 5 }
    local TYPEIDS = { "prefix_01h455vb4pex5vsknk084sn02q", "01h455vb4pex5vsknk084sn02q", "_01h455vb4pex5vsknk084sn02q",
        "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz", 5 }
    local PREFIXES = { "user", "", "a_b", ("a"):rep(63), "User", ("a"):rep(64), 5 }
    local NAMESPACES = { M.NAMESPACE_DNS, M.NAMESPACE_URL, M.parse_uuid(M.NAMESPACE_OID), "dns", 5 }
    local V1S = { "c232ab00-9414-11ec-b3c8-9f6bdeced846", "1ec9414c-232a-6b00-b3c8-9f6bdeced846", UUIDS[1], 5 }

    ---------------------------------------------------------------------------
    -- What a result that is not deterministic is compared by.

    -- The type and the text, every letter and digit an x.
    local function shape(v)
        return type(v) .. " " .. tostring(v):gsub("%w", "x")
    end

    local function uuid_shape(v)
        return shape(v) .. " version " .. tostring(v):sub(15, 15)
    end

    -- A relative ID: its tag (which the secret, salt and key decide) and shape.
    local function tagged(v)
        local text = tostring(v)
        return type(v) .. " " .. text:sub(1, 7) .. shape(text:sub(8))
    end

    local function symbols_of(alphabet)
        return function(v)
            local foreign = tostring(v):gsub("[" .. alphabet:gsub("%W", "%%%0") .. "]", "")
            return type(v) .. " of " .. #tostring(v) .. " bytes, " .. #foreign .. " foreign"
        end
    end
    local default_symbols = symbols_of("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict")

    local function machine_of(epoch)
        return function(id)
            local _, machine = M.parse_snowflake(id, epoch)
            return type(id) .. " of machine " .. tostring(machine)
        end
    end

    -- A generator's text without its address.
    local function unaddressed(v)
        return (tostring(v):gsub("%(.*%)", "(...)"))
    end

    ---------------------------------------------------------------------------
    section("one-shot calls", function()
        case("ulid, uuid7 and uuid4 of the process-wide generators", function(h)
            h.step("ulid()", function() return M.ulid() end, shape)
            h.step("uuid7()", function() return M.uuid7() end, uuid_shape)
            h.step("uuid4()", function() return M.uuid4() end, uuid_shape)
        end)

        case("nanoid of the default alphabet", function(h)
            local size = h.pick(SIZES)
            h.step("nanoid()", function() return M.nanoid() end, default_symbols)
            h.step("nanoid(size)", function() return M.nanoid(size) end, default_symbols)
            h.step("nanoid(size, nil)", function() return M.nanoid(size, nil) end, default_symbols)
        end)

        case("nanoid of a one-symbol alphabet (deterministic), and bad arguments", function(h)
            local size, other = h.pick(SIZES), h.pick({ 0, 2.5, "5", -1, 100000 })
            h.step("nanoid(size, 'x')", function() return M.nanoid(size, "x") end)
            h.step("nanoid(bad size)", function() return M.nanoid(other, "x") end)
            h.step("nanoid(size, bad alphabet)", function()
                return M.nanoid(size, h.pick({ "", 5, "aa", ALL_BYTES .. "x" }))
            end)
            h.step("nanoid(size, 'x') again", function() return M.nanoid(size, "x") end)
        end)

        case("uuid1, uuid6, ksuid and typeid of the process-wide generators", function(h)
            local prefix = h.pick(PREFIXES)
            h.step("uuid1()", function() return M.uuid1() end, uuid_shape)
            h.step("uuid6()", function() return M.uuid6() end, uuid_shape)
            h.step("ksuid()", function() return M.ksuid() end, shape)
            h.step("typeid(prefix)", function() return M.typeid(prefix) end, shape)
        end)
    end)

    ---------------------------------------------------------------------------
    -- ULIDs and UUIDv7s: monotonic generators of one kind of state.
    for _, kind in ipairs({ { "ulid_generator", shape }, { "uuid7_generator", uuid_shape } }) do
        local ctor, like = kind[1], kind[2]
        section(ctor, function()
            case("with clock and random", function(h)
                local g = h.use(M[ctor](h.opts { clock = h.clock(), random = h.random() }))
                local next = h.mint(function() return g:next() end)
                h.step("next()", next)
                h.step("next_value()", function() return g:next_value() end)
                h.step("next() again", next)
                h.step("next_value() again", function() return g:next_value() end)
            end)

            case("counter overflow: nil, message and the state kept", function(h)
                local g = h.use(M[ctor] { clock = function() poke(); return 1469922850259 end, random = h.random(255) })
                local next = h.mint(function() return g:next() end)
                h.step("next()", next)
                h.step("next(), overflowing", next)
                h.step("next_value(), overflowing", function() return g:next_value() end)
            end)

            case("on the OS clock and pool", function(h)
                local g = h.use(M[ctor]())
                local next = h.mint(function() return g:next() end)
                h.step("next()", next, like)
                h.step("next_value()", function() return g:next_value() end, like)
                h.step("next() again", next, like)
            end)
        end)
    end

    ---------------------------------------------------------------------------
    section("uuid4_generator", function()
        case("with random", function(h)
            local g = h.use(M.uuid4_generator(h.opts { random = h.random(), clock = h.clock() }))
            h.step("next()", function() return g:next() end)
            h.step("next_value()", function() return g:next_value() end)
            h.step("next() again", function() return g:next() end)
        end)

        case("on the OS pool", function(h)
            local g = h.use(M.uuid4_generator())
            h.step("next()", function() return g:next() end, uuid_shape)
            h.step("next_value()", function() return g:next_value() end, uuid_shape)
        end)
    end)

    ---------------------------------------------------------------------------
    section("relative_generator", function()
        case("with clock and random", function(h)
            local key, other = h.pick(KEYS), h.pick(KEYS)
            local g = h.use(M.relative_generator(h.opts {
                secret = h.pick(SECRETS), salt = h.pick(SALTS), clock = h.clock(), random = h.random(),
            }))
            local next = h.mint(function() return g:next(key) end)
            h.step("next(key)", next)
            h.step("next_value(key)", function() return g:next_value(key) end)
            h.step("tag(key)", function() return g:tag(key) end)
            h.step("prefix(other key)", function() return g:prefix(other) end)
            h.step("next(other key)", function() return g:next(other) end)
        end)

        case("on the OS clock and pool (the tag is deterministic)", function(h)
            local key = h.pick(KEYS)
            local g = h.use(M.relative_generator { secret = h.pick(SECRETS), salt = h.pick(SALTS) })
            h.step("tag(key)", function() return g:tag(key) end)
            h.step("prefix(key)", function() return g:prefix(key) end)
            h.step("next(key)", h.mint(function() return g:next(key) end), tagged)
            h.step("next_value(key)", function() return g:next_value(key) end, tagged)
            h.step("tag(key) again", function() return g:tag(key) end)
        end)
    end)

    ---------------------------------------------------------------------------
    section("snowflake_generator", function()
        case("with a clock", function(h)
            local base = h.pick({ n = 4, nil, nil, nil, 2 ^ 42 }) -- 2^42: the timestamp no longer fits
            local g = h.use(M.snowflake_generator(h.opts {
                clock = h.clock(base), machine_id = h.pick({ 0, 1, 7, 1023 }), epoch = h.pick(GEN_EPOCHS),
                max_wait_ms = h.pick({ n = 3, nil, 0, 5 }), random = h.random(),
            }))
            local next = h.mint(function() return g:next() end)
            for i = 1, 4 do
                h.step("next() #" .. i, next)
            end
        end)

        case("with a layout", function(h)
            local layout = h.pick({ "sonyflake", "instagram", "twitter", sonyflake_table(h) })
            local g = h.use(M.snowflake_generator(h.opts {
                clock = h.clock(), layout = layout, machine_id = h.pick({ 0, 255, 1023 }),
                max_wait_ms = h.pick({ n = 2, nil, 0 }),
            }))
            local next = h.mint(function() return g:next() end)
            for i = 1, 3 do
                h.step("next() #" .. i, next)
            end
        end)

        case("on the OS clock (the machine id is deterministic)", function(h)
            local epoch = h.pick({ 0, 1288834974657 })
            local g = h.use(M.snowflake_generator { machine_id = h.pick({ 0, 7, 1023 }), epoch = epoch })
            local next = h.mint(function() return g:next() end)
            h.step("next()", next, machine_of(epoch))
            h.step("next() again", next, machine_of(epoch))
        end)
    end)

    ---------------------------------------------------------------------------
    -- Leases: a fence (the lease object's _fence) and a generator on it,
    -- every state it can read deterministically (no deadline or one long
    -- past; no floor or one far ahead), and the byte locks of lock files.
    section("leases", function()
        local FAR = 9000000000000 -- a floor in the year 2255: waiting
        local IDS, VALID, FLOORS = { 0, 9, 1023 }, { math.huge, 0 }, { 0, FAR }
        local REASONS = { "lost", "released", "gone" }

        case("a fence alone", function(h)
            local f
            local id, valid, floor, reason = h.pick(IDS), h.pick(VALID), h.pick(FLOORS), h.pick(REASONS)
            h.step("_lease_fence():state()", function()
                f = h.see(M._lease_fence())
                return f:state()
            end)
            h.step("f:hold(id, valid, floor)", function() return f:hold(id, valid, floor) end)
            h.step("f:state()", function() return f:state() end)
            h.step("f:machine_id()", function() return f:machine_id() end)
            h.step("f:layout()", function() return select(2, f:layout()) end)
            h.step("_lease_fence(layout):layout()", function()
                return select(2, M._lease_fence(h.pick(LAYOUTS)):layout())
            end)
            -- the reading itself differs from the calm run's
            h.step("f:clock()", function() return f:clock() > 0 end)
            h.step("tostring(f)", function() return tostring(f) end)
            h.step("f:hold(bad)", function() return f:hold(id, -1, floor) end)
            h.step("f:drop(reason)", function() return f:drop(reason) end)
            h.step("f:state() dropped", function() return f:state() end)
        end)

        -- Every step is a call of g (the storm may close it), the fence
        -- moved just before.
        case("a generator on a fence", function(h)
            local f = M._lease_fence()
            local g = h.use(M.snowflake_generator(h.opts {
                lease = { _fence = f }, clock = h.clock(), epoch = h.pick(GEN_EPOCHS),
            }))
            local id, valid, floor, reason = h.pick(IDS), h.pick(VALID), h.pick(FLOORS), h.pick({ "lost", "released" })
            h.step("g:next() unheld", function() return g:next() end)
            h.step("f:hold(id, valid, floor); g:next()", function()
                f:hold(id, valid, floor)
                return g:next()
            end)
            h.step("g:next() again", function() return g:next() end)
            h.step("f:drop(reason); g:next()", function()
                f:drop(reason)
                return g:next()
            end)
        end)

        -- One file for every instance; the calm and storm runs may hold a
        -- byte at once, so a lock is compared by whether it answered.
        local path = (os.getenv("STORM_TRACE") or os.tmpname()) .. ".lock"
        local function answered(v) return v == nil and "nil" or "answered" end
        case("a lock file's byte locks", function(h)
            local lf, mt
            local byte = h.pick({ 0, 5, 1023, 1024 })
            h.step("_lock_file(path)", function()
                lf = h.see(assert(M._lock_file(path)))
                mt = getmetatable(lf)
                return type(lf)
            end)
            h.step("lf:lock(byte)", function() return lf:lock(byte) end, answered)
            h.step("lf:taken(byte)", function() return lf:taken(byte) end, answered)
            h.step("lf:held(0, 1023)", function() return type(lf:held(0, 1023)) end, answered)
            h.step("lf:path()", function() return type(lf:path()) end)
            h.step("lf:pin(path .. '.layout')", function() return lf:pin(path .. ".layout") end, answered)
            h.step("f:hold(5, ...); lf:guard(f)", function()
                local f = M._lease_fence()
                f:hold(5, math.huge, 0, lf)
                return lf:guard(f)
            end, answered)
            h.step("lf:unlock(byte)", function() return lf:unlock(byte) end)
            h.step("tostring(lf)", function() return (tostring(lf):gsub("%(.*%)", "(...)")) end)
            h.step("lf:close()", function() return lf:close() end)
            h.step("__close and __gc once closed", function() return mt.__close(lf), mt.__gc(lf) end)
            h.step("lf:lock(byte) once closed", function() return lf:lock(byte) end)
        end)
    end)

    ---------------------------------------------------------------------------
    section("nanoid_generator", function()
        case("with random", function(h)
            local g = h.use(M.nanoid_generator(h.opts {
                size = h.pick(SIZES), alphabet = h.pick(ALPHABETS), random = h.random(), clock = h.clock(),
            }))
            h.step("next()", function() return g:next() end)
            h.step("next() again", function() return g:next() end)
            h.step("next() a third time", function() return g:next() end)
        end)

        case("on the OS pool", function(h)
            local size = h.pick(SIZES)
            local one = h.use(M.nanoid_generator { size = size, alphabet = "x" })
            h.step("next() of one symbol (deterministic)", function() return one:next() end)
            h.step("next() again", function() return one:next() end)
        end)

        case("on the OS pool, the default alphabet", function(h)
            local g = h.use(M.nanoid_generator { size = h.pick(SIZES) })
            h.step("next()", function() return g:next() end, default_symbols)
            h.step("next() again", function() return g:next() end, default_symbols)
        end)
    end)

    ---------------------------------------------------------------------------
    -- CUID2s: the one-shot call and is_cuid2 (shapes: the pool's), and a
    -- generator whose clock and random make it deterministic.
    section("cuid2", function()
        local function cuid2_shape(v)
            return type(v) .. " " .. tostring(v):gsub("%l", "a"):gsub("%d", "a")
        end
        case("cuid2 of the process-wide generator, is_cuid2, and bad arguments", function(h)
            local length, bad = h.pick({ n = 4, nil, 2, 24, 32 }), h.pick({ 1, 33, 2.5, "24", {} })
            h.step("cuid2(length)", function() return M.cuid2(length) end, cuid2_shape)
            h.step("cuid2(bad length)", function() return M.cuid2(bad) end)
            h.step("is_cuid2(text, min, max)", function()
                return M.is_cuid2(h.pick({ "ab", "a1", "Ab", "a", 5, ("a"):rep(33) }), h.pick({ n = 2, nil, 3 }),
                    h.pick({ n = 3, nil, 32, "x" }))
            end)
        end)

        case("cuid2_generator with clock and random", function(h)
            -- No ID of a minted run may repeat: lengths whose IDs are too
            -- few for that (26 * 36 of length 2) stay out of these cases.
            local g = h.use(M.cuid2_generator(h.opts {
                length = h.pick({ 10, 24, 32 }), fingerprint = h.pick({ n = 2, nil, "host" }),
                clock = h.clock(), random = h.random(),
            }))
            local next = h.mint(function() return g:next() end)
            h.step("next()", next)
            h.step("next() again", next)
            h.step("next() a third time", next)
        end)

        case("cuid2_generator on the OS clock and pool", function(h)
            local g = h.use(M.cuid2_generator { length = h.pick({ 10, 24, 32 }) })
            local next = h.mint(function() return g:next() end)
            h.step("next()", next, cuid2_shape)
            h.step("next() again", next, cuid2_shape)
        end)
    end)

    ---------------------------------------------------------------------------
    -- Each constructor under the storm, its options read through __index
    -- (Lua code in the middle of the constructor), then its first ID.
    section("constructors", function()
        local function made(ctor, first)
            case(ctor .. " and its first ID", function(h)
                local opts = h.opts { clock = h.clock(), random = h.random() }
                h.step(ctor .. "(opts):next()", function()
                    local g = h.use(M[ctor](opts))
                    return first(g)
                end)
            end)
        end
        made("ulid_generator", function(g) return g:next() end)
        made("uuid7_generator", function(g) return g:next() end)
        made("uuid4_generator", function(g) return g:next() end)
        made("snowflake_generator", function(g) return g:next() end)
        made("nanoid_generator", function(g) return g:next() end)
        made("uuid1_generator", function(g) return g:next() end)
        made("uuid6_generator", function(g) return g:next() end)
        made("ksuid_generator", function(g) return g:next() end)
        made("typeid_generator", function(g) return g:next("user") end)
        made("cuid2_generator", function(g) return g:next() end)

        case("relative_generator and its first ID", function(h)
            local key = h.pick(KEYS)
            local opts = h.opts { secret = h.pick(SECRETS), salt = h.pick(SALTS), clock = h.clock(), random = h.random() }
            h.step("relative_generator(opts):next(key)", function()
                local g = h.use(M.relative_generator(opts))
                return g:next(key)
            end)
        end)

        case("bad options raise", function(h)
            local bad = h.pick({
                { "ulid_generator", { clok = 1 } }, { "uuid7_generator", { clock = 5 } },
                { "uuid4_generator", 5 }, { "relative_generator", { secret = "short" } },
                { "relative_generator", { secret = SECRETS[1], salt = 5 } },
                { "snowflake_generator", { machine_id = 1024 } }, { "snowflake_generator", { epoch = 1.5 } },
                { "snowflake_generator", { max_wait_ms = -1 } }, { "nanoid_generator", { size = 0 } },
                { "snowflake_generator", { layout = "nope" } },
                { "snowflake_generator", { layout = "sonyflake", machine_id = 65536 } },
                { "nanoid_generator", { alphabet = "" } }, { "nanoid_generator", { [1] = true } },
            })
            h.step(bad[1] .. "(bad options)", function() return M[bad[1]](bad[2]) ~= nil end)
        end)
    end)

    ---------------------------------------------------------------------------
    section("parsing", function()
        case("parse_ulid and the value's methods", function(h)
            local text = h.pick(ULIDS)
            h.step("parse_ulid(text)", function() return M.parse_ulid(text) end)
            h.step("parse_ulid(text):bytes(), :time(), :uuid(), :random()", function()
                local v, msg = M.parse_ulid(text)
                if not v then return v, msg end
                return v:bytes(), v:time(), v:uuid(), v:random()
            end)
        end)

        case("parse_uuid and the value's methods", function(h)
            local text = h.pick(UUIDS)
            h.step("parse_uuid(text)", function() return M.parse_uuid(text) end)
            h.step("parse_uuid(text):bytes(), :time(), :version(), :ulid()", function()
                local v, msg = M.parse_uuid(text)
                if not v then return v, msg end
                return v:bytes(), v:time(), v:version(), v:ulid()
            end)
        end)

        case("parse_relative and the value's methods", function(h)
            local text = h.pick(RELATIVES)
            h.step("parse_relative(text)", function() return M.parse_relative(text) end)
            h.step("parse_relative(text):bytes(), :time(), :tag(), :rand(), :prefix(), :iso()", function()
                local v, msg = M.parse_relative(text)
                if not v then return v, msg end
                return v:bytes(), v:time(), v:tag(), v:rand(), v:prefix(), v:iso()
            end)
        end)

        case("parse_snowflake", function(h)
            local id, epoch = h.pick(SNOWFLAKES), h.pick(EPOCHS)
            h.step("parse_snowflake(id)", function() return M.parse_snowflake(id) end)
            h.step("parse_snowflake(id, epoch)", function() return M.parse_snowflake(id, epoch) end)
            h.step("parse_snowflake(id) again", function() return M.parse_snowflake(id) end)
        end)

        case("parse_snowflake with a layout, snowflake_layout", function(h)
            local id, layout = h.pick(SNOWFLAKES), h.pick(LAYOUTS)
            h.step("parse_snowflake(id, layout)", function() return M.parse_snowflake(id, layout) end)
            h.step("parse_snowflake(id, sonyflake table)", function() return M.parse_snowflake(id, sonyflake_table(h)) end)
            h.step("snowflake_layout(layout)", function()
                local t = M.snowflake_layout(layout)
                return t.time_bits, t.time_unit_ms, t.machine_bits, t.seq_bits, t.epoch, t.order, t.name
            end)
        end)

        case("validators, lenient UUIDs and the everyday value methods", function(h)
            local text = h.pick({ h.pick(ULIDS), h.pick(UUIDS), h.pick(KSUIDS), h.pick(TYPEIDS), "x", "",
                "{" .. h.pick(UUIDS) .. "}" })
            h.step("is_ulid, is_uuid, is_ksuid, is_typeid, is_nanoid(text)", function()
                return M.is_ulid(text), M.is_uuid(text), M.is_ksuid(text), M.is_typeid(text), M.is_nanoid(text),
                    M.is_nanoid(text, #text > 0 and #text or 1, "0123456789ABCDEFabcdef-")
            end)
            h.step("parse_uuid(text, \"lenient\") and its :hex(), :urn(), :node(), :clock_seq(), :ticks(), :iso()",
                function()
                    local v, msg = M.parse_uuid(text, "lenient")
                    if not v then return v, msg end
                    return v:hex(), v:urn(), v:node(), v:clock_seq(), tostring(v:ticks()), v:iso()
                end)
            h.step("parse_ulid(text):iso()", function()
                local v, msg = M.parse_ulid(text)
                if not v then return v, msg end
                return v:iso()
            end)
        end)

        case("kind_of", function(h)
            local text = h.pick({ h.pick(ULIDS), h.pick(UUIDS), h.pick(RELATIVES), h.pick(SNOWFLAKES), "x_y", "",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" })
            h.step("kind_of(text)", function() return M.kind_of(text) end)
        end)

        case("ulid_to_uuid and uuid_to_ulid", function(h)
            local ulid, uuid = h.pick(ULIDS), h.pick(UUIDS)
            h.step("ulid_to_uuid(text)", function() return M.ulid_to_uuid(ulid) end)
            h.step("uuid_to_ulid(text)", function() return M.uuid_to_ulid(uuid) end)
        end)

        case("KSUID and TypeID values", function(h)
            local k, t, prefix = h.pick(KSUIDS), h.pick(TYPEIDS), h.pick(PREFIXES)
            h.step("parse_ksuid(text) and its methods", function()
                local v, msg = M.parse_ksuid(k)
                if not v then return v, msg end
                return v:bytes(), v:payload(), v:time(), v:iso(), tostring(v)
            end)
            h.step("ksuid_from(s, p16), ksuid_from_bytes(b20)", function()
                return M.ksuid_from(h.pick(NUMBERS), h.pick({ ALL_BYTES:sub(1, 16), "short" })),
                    M.ksuid_from_bytes(h.pick({ ALL_BYTES:sub(1, 20), "short" }))
            end)
            h.step("parse_typeid(text) and its methods", function()
                local v, msg = M.parse_typeid(t)
                if not v then return v, msg end
                return v:prefix(), v:uuid(), v:bytes(), v:time(), v:iso(), tostring(v)
            end)
            h.step("typeid_from(prefix, uuid)", function() return M.typeid_from(prefix, h.pick(UUIDS)) end)
        end)

        case("short_uuid and parse_short_uuid, in the named, custom and bad alphabets", function(h)
            local alphabet = h.pick({ n = 7, nil, M.SHORT_UUID_FLICKR, M.SHORT_UUID_COOKIE, "01", ALL_BYTES, "aa", 5 })
            local uuid = h.pick({ h.pick(UUIDS), M.parse_uuid(UUIDS[1]), M.UUID_MAX, M.parse_ulid(ULIDS[1]) })
            h.step("short_uuid(uuid, alphabet)", function() return M.short_uuid(uuid, alphabet) end)
            h.step("parse_short_uuid(short_uuid(uuid, alphabet), alphabet)", function()
                local text, msg = M.short_uuid(uuid, alphabet)
                if not text then return text, msg end
                return M.parse_short_uuid(text, alphabet)
            end)
            h.step("parse_short_uuid(text, alphabet)", function()
                return M.parse_short_uuid(h.pick({ "xBuEXKpA6iqZQK5Kf2TnkV", "xBuEXKpA6iqZQK5Kf2TnkW", "", 5 }), alphabet)
            end)
            h.step("short_uuid(uuid) again", function() return M.short_uuid(uuid) end)
        end)
    end)

    ---------------------------------------------------------------------------
    section("building values", function()
        case("ulid_from, ulid_from_bytes, uuid_from_bytes", function(h)
            local ms, rand = h.pick(NUMBERS), h.pick({ ("\0"):rep(10), ("\255"):rep(10), "short", 10 })
            local b16 = h.pick({ ("\0"):rep(16), ALL_BYTES:sub(1, 16), ("\255"):rep(15), 16 })
            h.step("ulid_from(ms, rand10)", function() return M.ulid_from(ms, rand) end)
            h.step("ulid_from_bytes(b16)", function() return M.ulid_from_bytes(b16) end)
            h.step("uuid_from_bytes(b16)", function() return M.uuid_from_bytes(b16) end)
        end)

        case("relative_from", function(h)
            local tag, ms, rand = h.pick(NUMBERS), h.pick(NUMBERS), h.pick(NUMBERS)
            h.step("relative_from(tag, ms, rand)", function() return M.relative_from(tag, ms, rand) end)
            h.step("relative_from(1, ms, 5)", function() return M.relative_from(1, ms, 5) end)
        end)

        case("relative_tag and relative_range", function(h)
            local secret, salt, key = h.pick({ SECRETS[1], SECRETS[2], "short" }), h.pick(SALTS), h.pick(KEYS)
            local range = h.pick(RANGES)
            h.step("relative_tag(secret, salt, key)", function() return M.relative_tag(secret, salt, key) end)
            h.step("relative_range(text)", function() return M.relative_range(range) end)
        end)

        case("name-based and custom UUIDs, conversions", function(h)
            local ns, name, v1 = h.pick(NAMESPACES), h.pick({ "www.example.com", "", ALL_BYTES, 5 }), h.pick(V1S)
            h.step("uuid3(ns, name)", function() return M.uuid3(ns, name) end)
            h.step("uuid5(ns, name)", function() return M.uuid5(ns, name) end)
            h.step("uuid8_sha256(ns, name)", function() return M.uuid8_sha256(ns, name) end)
            h.step("uuid8(b16)", function() return M.uuid8(h.pick({ ALL_BYTES:sub(1, 16), "short", 16 })) end)
            h.step("uuid1_to_uuid6(text)", function() return M.uuid1_to_uuid6(v1) end)
            h.step("uuid6_to_uuid1(text)", function() return M.uuid6_to_uuid1(v1) end)
            h.step("parse_uuid(text):variant()", function()
                local v, msg = M.parse_uuid(v1)
                if not v then return v, msg end
                return v:variant(), v:time()
            end)
        end)
    end)

    ---------------------------------------------------------------------------
    section("values: tostring, ==, < and <=", function()
        local function compared(kind, a, b)
            case(kind, function(h)
                local x, y = h.pick({ a, b }), h.pick({ a, b })
                h.step("tostring(v)", function() return tostring(x) end)
                h.step("a == b", function() return x == y end)
                h.step("a < b", function() return x < y end)
                h.step("a <= b", function() return x <= y end)
            end)
        end
        compared("ULID values", M.parse_ulid(ULIDS[1]), M.parse_ulid(ULIDS[3]))
        compared("UUID values", M.parse_uuid(UUIDS[1]), M.parse_uuid(UUIDS[4]))
        compared("relative-ID values", M.parse_relative(RELATIVES[1]), M.parse_relative(RELATIVES[3]))
        compared("a ULID and a UUID (< raises)", M.parse_ulid(ULIDS[1]), M.parse_uuid(UUIDS[3]))
        compared("KSUID values", M.parse_ksuid("0ujtsYcgvSTl8PAuAdqWYSMnLOv"), M.parse_ksuid("aWgEPTl1tmebfsQzFP4bxwgy80V"))
        compared("TypeID values", M.parse_typeid("a_00000000000000000000000001"),
            M.parse_typeid("ab_00000000000000000000000000"))
    end)

    ---------------------------------------------------------------------------
    -- The UUIDv1, UUIDv6, KSUID and TypeID generators.
    for _, ctor in ipairs({ "uuid1_generator", "uuid6_generator", "ksuid_generator", "typeid_generator" }) do
        section(ctor, function()
            local function next_of(g, prefix)
                if ctor == "typeid_generator" then return g:next(prefix) end
                return g:next()
            end
            case("with clock and random", function(h)
                local prefix = h.pick(PREFIXES)
                local opts = { clock = h.clock(), random = h.random() }
                if ctor:match("^uuid") and h.n(2) == 1 then
                    opts.node, opts.clock_seq = "\1\2\3\4\5\6", h.pick({ 0, 16383 })
                end
                local g = h.use(M[ctor](h.opts(opts)))
                local next = h.mint(function() return next_of(g, prefix) end)
                h.step("next()", next)
                h.step("next() again", next)
                if ctor ~= "typeid_generator" then
                    h.step("next_value()", function() return g:next_value() end)
                end
            end)

            case("on the OS clock and pool", function(h)
                local g = h.use(M[ctor]())
                local next = h.mint(function() return next_of(g, "user") end)
                h.step("next()", next, shape)
                h.step("next() again", next, shape)
            end)
        end)
    end

    ---------------------------------------------------------------------------
    -- MongoDB ObjectId and XID: the defaults, generators (XID's machine and
    -- pid options), parsing, values and their order, closing.
    local OBJECTIDS = { "507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011", ("f"):rep(24),
        "507f1f77bcf86cd79943901z", "short", 5 }
    local XIDS = { "9m4e2mr0ui3e8a215n4g", ("0"):rep(20), "9m4e2mr0ui3e8a215n4h", "9M4E2MR0UI3E8A215N4G", "x", 5 }
    local MACHINES = { n = 4, nil, "abc", "ab", 5 }
    local PIDS = { n = 5, nil, 0, 65535, 65536, -1 }
    section("ObjectId and XID", function()
        case("objectid and xid of the process-wide generators", function(h)
            h.step("objectid()", function() return M.objectid() end, shape)
            h.step("xid()", function() return M.xid() end, shape)
        end)

        for _, ctor in ipairs({ "objectid_generator", "xid_generator" }) do
            case(ctor .. " with clock and random", function(h)
                local opts = { clock = h.clock(), random = h.random() }
                if ctor == "xid_generator" then opts.machine, opts.pid = "mid", h.pick({ 0, 4660, 65535 }) end
                local g = h.use(h.see(M[ctor](h.opts(opts))))
                local next = h.mint(function() return g:next() end)
                h.step("next()", next)
                h.step("next() again", next)
                h.step("next_value()", function() return g:next_value() end)
            end)

            case(ctor .. " on the OS clock and pool", function(h)
                local g = h.use(M[ctor]())
                local next = h.mint(function() return g:next() end)
                h.step("next()", next, shape)
                h.step("next() again", next, shape)
            end)

            case(ctor .. ": tostring, __close, __gc and a closed one", function(h)
                local g = h.see(M[ctor]())
                local mt = getmetatable(g)
                h.step("tostring(g)", function() return tostring(g) end, unaddressed)
                h.step("getmetatable(g).__close(g)", function() return mt.__close(g) end)
                h.step("g:next() once closed", function() return g:next() end)
                h.step("getmetatable(g).__gc(g), again", function() return mt.__gc(g) end)
            end)
        end

        case("objectid_generator and its first ID", function(h)
            h.step("objectid_generator(opts):next()", function()
                local g = h.use(M.objectid_generator(h.opts { clock = h.clock(), random = h.random() }))
                return g:next()
            end)
        end)

        case("xid_generator's options", function(h)
            local machine, pid = h.pick(MACHINES), h.pick(PIDS)
            h.step("xid_generator{ machine, pid }:next_value()", function()
                local g = h.use(M.xid_generator(h.opts { machine = machine, pid = pid, clock = h.clock(),
                    random = h.random() }))
                return g:next_value()
            end, function(v)
                -- With neither given, the counter is the process's one, which
                -- every XID of the process moves: compared by the rest. Read
                -- here, after the call: a finalizer that closes g while these
                -- run closes it after its call, which then rightly returned.
                if machine == nil and pid == nil then return v:time() .. "/" .. v:machine() .. "/" .. v:pid() end
                return tostring(v)
            end)
        end)

        case("ObjectId and XID values", function(h)
            local o, x = h.pick(OBJECTIDS), h.pick(XIDS)
            h.step("parse_objectid(text) and its methods", function()
                local v, msg = M.parse_objectid(o)
                if not v then return v, msg end
                return v:bytes(), v:time(), v:iso(), v:counter(), tostring(v)
            end)
            h.step("parse_xid(text) and its methods", function()
                local v, msg = M.parse_xid(x)
                if not v then return v, msg end
                return v:bytes(), v:time(), v:iso(), v:machine(), v:pid(), v:counter(), tostring(v)
            end)
            h.step("objectid_from_bytes(b12), xid_from_bytes(b12)", function()
                return M.objectid_from_bytes(h.pick({ ALL_BYTES:sub(1, 12), "short", 12 })),
                    M.xid_from_bytes(h.pick({ ALL_BYTES:sub(1, 12), "short" }))
            end)
        end)

        for _, pair in ipairs({ { "ObjectId values", M.parse_objectid(OBJECTIDS[1]), M.parse_objectid(OBJECTIDS[3]) },
            { "XID values", M.parse_xid(XIDS[2]), M.parse_xid(XIDS[1]) },
            { "an ObjectId and an XID (< raises)", M.parse_objectid(OBJECTIDS[1]), M.parse_xid(XIDS[1]) } }) do
            case(pair[1], function(h)
                local a, b = h.pick({ pair[2], pair[3] }), h.pick({ pair[3], pair[2] })
                h.step("a == b", function() return a == b end)
                h.step("a < b", function() return a < b end)
                h.step("a <= b", function() return a <= b end)
            end)
        end
    end)

    ---------------------------------------------------------------------------
    -- W3C Trace Context: ids from the pool, headers built and parsed.
    local T, P = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    local TRACE_IDS = { n = 6, nil, T, T:upper(), ("0"):rep(32), "short", 5 }
    local PARENT_IDS = { n = 5, nil, P, ("0"):rep(16), P .. "0", {} }
    local FLAGS = { n = 7, nil, 0, 1, 255, 256, -1, 1.5 }
    local HEADERS = { "00-" .. T .. "-" .. P .. "-01", "01-" .. T .. "-" .. P .. "-03-more", "ff-" .. T .. "-" .. P .. "-01",
        "00-" .. T .. "-" .. P .. "-01-", "00-" .. ("0"):rep(32) .. "-" .. P .. "-00", "", 55 }
    if ffi then
        FLAGS.n = FLAGS.n + 1
        FLAGS[FLAGS.n] = ffi.new("int64_t", 3)
    end
    -- A header with fresh ids, as its given parts and the shape of the rest.
    local function header_shape(v, ...)
        if type(v) ~= "string" then return v, ... end
        return v:sub(1, 3) .. v:sub(4, 35):gsub("%x", "x") .. v:sub(36, 36) .. v:sub(37, 52):gsub("%x", "x")
            .. v:sub(53)
    end
    section("trace context", function()
        case("trace_id, span_id and traceparent of the pool; parse_traceparent", function(h)
            local trace_id, parent_id, flags, header = h.pick(TRACE_IDS), h.pick(PARENT_IDS), h.pick(FLAGS),
                h.pick(HEADERS)
            h.step("trace_id()", function() return M.trace_id() end, shape)
            h.step("span_id()", function() return M.span_id() end, shape)
            h.step("traceparent(trace_id, parent_id, flags)", function()
                return M.traceparent(trace_id, parent_id, flags)
            end, header_shape)
            h.step("parse_traceparent(header)", function() return M.parse_traceparent(header) end)
        end)
    end)

    ---------------------------------------------------------------------------
    -- Sqids encoders: no state changes, so every step gives the calm result.
    section("sqids", function()
        local DEFAULT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        local LONG = {}
        for i = 1, 40 do LONG[i] = i * 7919 end -- past the FFI's 16 numbers
        local LISTS = { {}, { 1, 2, 3 }, { 0, 2 ^ 53 - 1 }, LONG, { -1 }, { 1.5 }, { "1" }, { 2 ^ 53 }, 5 }
        if ffi then LISTS[#LISTS + 1] = { ffi.new("int64_t", 42), ffi.new("uint64_t", 7) } end
        local TEXTS = { "86Rf07", "", "*", "aho1e", ("86Rf07"):rep(20), "zzzzzzzzzzzzzzzzzzzzzzzz", 5 }
        -- a decoded array as text: a new table each call
        local function listed(t)
            if type(t) ~= "table" then return t end
            local out = {}
            for i, v in ipairs(t) do out[i] = tostring(v) end
            return "{" .. table.concat(out, ",") .. "}"
        end
        case("encode and decode, with each option", function(h)
            local opts = {
                alphabet = h.pick({ n = 4, nil, DEFAULT, "0123456789abcdef", "abc" }),
                min_length = h.pick({ n = 4, nil, 0, 10, 255 }),
                blocklist = h.pick({ n = 3, nil, {}, { "86u", "aho1e", "sec" } }),
            }
            local s = h.see(M.sqids(h.opts(opts)))
            local numbers, text = h.pick(LISTS), h.pick(TEXTS)
            h.step("tostring(s)", function() return tostring(s) end, unaddressed)
            h.step("s:encode(numbers)", function() return s:encode(numbers) end)
            h.step("s:decode(text)", function() return s:decode(text) end, listed)
            h.step("s:decode(s:encode({ 1, 2, 3 }))", function() return s:decode(s:encode({ 1, 2, 3 })) end, listed)
            h.step("s:encode(numbers) again", function() return s:encode(numbers) end)
        end)

        case("bad options, and the reference's last attempt", function(h)
            local bad = h.pick({ { alphabet = "ab" }, { alphabet = "aab" }, { alphabet = "\200bc" },
                { min_length = 256 }, { min_length = 1.5 }, { blocklist = { "abc", 5 } }, { nope = 1 }, "x" })
            h.step("sqids(bad options)", function() return M.sqids(h.opts(bad)) end, unaddressed)
            local s = h.see(M.sqids { alphabet = "abc", min_length = 3, blocklist = { "cab", "abc", "bca" } })
            h.step("s:encode({ 0 }): max attempts", function() return s:encode({ 0 }) end)
        end)
    end)

    ---------------------------------------------------------------------------
    -- tostring, __close and __gc of every kind, through the metatable as a
    -- user would, and what a closed generator then does.
    section("closing and printing generators", function()
        local function next_of(g, ctor)
            if ctor == "relative_generator" then return g:next("k") end
            if ctor == "typeid_generator" then return g:next("k") end
            return g:next()
        end
        for _, ctor in ipairs({ "ulid_generator", "uuid7_generator", "uuid4_generator", "relative_generator",
            "snowflake_generator", "nanoid_generator", "uuid1_generator", "uuid6_generator", "ksuid_generator",
            "typeid_generator", "cuid2_generator" }) do
            case(ctor, function(h)
                local opts = { secret = ctor == "relative_generator" and SECRETS[1] or nil }
                if h.n(2) == 1 then
                    opts.clock, opts.random = h.clock(), h.random()
                end
                local g = h.see(M[ctor](opts))
                local mt = getmetatable(g)
                h.step("tostring(g)", function() return tostring(g) end, unaddressed)
                h.step("getmetatable(g).__close(g)", function() return mt.__close(g) end)
                h.step("g:next() once closed", function() return next_of(g, ctor) end)
                h.step("getmetatable(g).__gc(g), again", function() return mt.__gc(g) end)
                h.step("tostring(g) once closed", function() return tostring(g) end, unaddressed)
            end)
        end
    end)
end
