-- The rockspecs (written by `make rockspecs` from tools/rockspec.in; install_check.sh
-- fails when they are stale): the scm one and the release one build the same way, and
-- build what the Makefile builds (its one list of sources).
local mintid = require "mintid"

local function load_rockspec(path)
    local env = {}
    local chunk
    if setfenv then
        chunk = assert(loadfile(path))
        setfenv(chunk, env)
    else
        chunk = assert(loadfile(path, "t", env))
    end
    chunk()
    return env
end

local function set_of(list)
    local t = {}
    for _, v in ipairs(list) do t[v] = true end
    return t
end

local function exists(path)
    local f = io.open(path, "rb")
    if f then f:close() end
    return f ~= nil
end

local SCM = "rockspec/mintid-scm-1.rockspec"
local RELEASE = "rockspec/mintid-" .. mintid._VERSION .. "-1.rockspec"

describe("rockspecs", function()
    local scm, release = load_rockspec(SCM), load_rockspec(RELEASE)

    it("the release rockspec is the module's version and builds exactly as the scm one", function()
        assert.are.equal(mintid._VERSION .. "-1", release.version)
        assert.are.equal("scm-1", scm.version)
        assert.are.same(scm.build, release.build)
        assert.are.same(scm.dependencies, release.dependencies)
        assert.are.same(scm.description, release.description)
        -- the release is fetched from the tarball of `make dist`
        assert.is_truthy(release.source.url:match("/mintid%-" .. mintid._VERSION:gsub("%.", "%%.") .. "%.tar%.gz$"),
            release.source.url)
    end)

    it("mintid is built from the Makefile's sources", function()
        local p = assert(io.popen("env -u LD_PRELOAD make -s --no-print-directory print-sources"))
        local out = p:read("*a")
        p:close()
        local make_sources = {}
        for word in out:gmatch("%S+") do make_sources[#make_sources + 1] = word end
        assert.is_true(#make_sources > 1, "make print-sources: " .. out)
        assert.are.same(set_of(make_sources), set_of(scm.build.modules["mintid"].sources))
    end)

    it("every Lua file under lua/ is a module of the rockspec, named by its path", function()
        local p = assert(io.popen("find lua -name '*.lua' | sort"))
        local out = p:read("*a")
        p:close()
        local count = 0
        for file in out:gmatch("%S+") do
            local name = file:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/", ".")
            assert.are.equal(file, scm.build.modules[name], "the rockspec's module " .. name)
            assert.are.equal(file, scm.build.platforms.unix.install.lua[name], "installed on Unix: " .. name)
            count = count + 1
        end
        assert.is_true(count >= 4, "find lua -name '*.lua': " .. out)
        assert.are.equal("lua/mintid/lease.lua", scm.build.modules["mintid.lease"])
    end)

    -- luarocks's builtin type builds in the checkout's root, where a Lua of
    -- another version started there would load its mintid.so first.
    it("on Unix the module is built by the Makefile under build/ and installed from there", function()
        local unix = scm.build.platforms.unix
        assert.are.same({ "make", "rock", false, "build/rock/mintid.so" },
            { unix.type, unix.build_target, unix.install_pass, unix.install.lib.mintid })
    end)

    it("every file the rockspec installs exists, the command-line tool among them", function()
        local files = { scm.build.install.bin.mintid }
        for _, m in pairs(scm.build.modules) do
            if type(m) == "string" then files[#files + 1] = m else
                for _, s in ipairs(m.sources) do files[#files + 1] = s end
            end
        end
        assert.are.equal("bin/mintid", scm.build.install.bin.mintid)
        for _, f in ipairs(files) do assert.is_true(exists(f), f) end
    end)
end)
