rockspec_format = "3.0"
package = "mintid"
version = "0.1.0-1"
-- The tarball of `make dist`, attached to the release v0.1.0.
source = {
   url = "https://github.com/mintid/mintid/releases/download/v0.1.0/mintid-0.1.0.tar.gz",
   dir = "mintid-0.1.0",
}
description = {
   summary = "Sortable, unique IDs for Lua: ULID, every UUID version, KSUID, TypeID, relative IDs, Snowflake, Nano ID",
   detailed = [[
mintid mints and parses identifiers in C: ULID, UUID of every RFC 9562
version (monotonic v7, v6 and v1, v4, name-based v3, v5 and v8), KSUID,
TypeID, HMAC-tagged relative IDs that prefix-scan per customer, Snowflake
and Nano ID, and W3C Trace Context headers. Randomness comes from a ChaCha20
generator keyed by the OS CSPRNG; the default generators are thread- and
fork-safe. Lua 5.1 to 5.5 and LuaJIT (resty.mintid, through the FFI).
]],
   homepage = "https://github.com/mintid/mintid",
   license = "MIT",
   labels = { "uuid", "ulid", "id", "ksuid", "typeid", "snowflake", "nanoid" },
}
dependencies = {
   "lua >= 5.1, < 5.6",
}
build = {
   type = "builtin",
   modules = {
      ["resty.mintid"] = "lua/resty/mintid.lua",
      ["resty.mintid.cdef"] = "lua/resty/mintid/cdef.lua",
      ["mintid.lease"] = "lua/mintid/lease.lua",
      ["mintid.lease.lock_file"] = "lua/mintid/lease/lock_file.lua",
      ["mintid.lease.options"] = "lua/mintid/lease/options.lua",
      ["mintid.lease.redis"] = "lua/mintid/lease/redis.lua",
      ["mintid"] = {
         sources = {
            "src/lua_mintid.c",
            "src/lua_helpers.c", "src/lua_layout.c", "src/lua_values.c", "src/lua_fence.c",
            "src/lua_hooks.c", "src/lua_generators.c", "src/lua_defaults.c", "src/lua_trace.c",
            "src/lua_short_uuid.c", "src/lua_sqids.c", "src/lua_lock_file.c", "src/error.c",
            "src/divide.c", "src/hex.c", "src/base32.c", "src/monotonic.c", "src/ulid.c",
            "src/uuid.c", "src/hash_block.c", "src/md5.c", "src/sha1.c", "src/uuid_name.c",
            "src/uuid_time.c", "src/base62.c", "src/ksuid.c", "src/short_uuid.c",
            "src/seconds_counter.c", "src/objectid.c", "src/xid.c", "src/os_hostid.c",
            "src/typeid.c", "src/trace.c", "src/kind.c", "src/iso.c", "src/sha256.c", "src/sha3.c",
            "src/cuid2.c", "src/relative.c", "src/fence.c", "src/lock_file.c",
            "src/snowflake_layout.c", "src/snowflake.c", "src/nanoid.c", "src/sqids.c",
            "src/sqids_blocklist.c", "src/chacha20.c", "src/chacha20_simd.c", "src/random.c",
            "src/default.c", "src/abi.c", "src/os_posix.c", "src/os_win32.c",
         },
         incdirs = { "src" },
         libraries = { "pthread" },
      },
   },
   install = {
      bin = { mintid = "bin/mintid" },
   },
   platforms = {
      -- Unix: the Makefile builds the module under build/rock (`make rock`),
      -- never in the checkout's root, where the builtin type leaves
      -- mintid.so: a Lua of another version started there loads that one
      -- first and fails ("undefined symbol"). The module and the Lua files
      -- are installed from the tables below.
      unix = {
         type = "make",
         build_target = "rock",
         build_variables = {
            CC = "$(CC)", CFLAGS = "$(CFLAGS)", LIBFLAG = "$(LIBFLAG)", LUA_INCDIR = "$(LUA_INCDIR)",
         },
         install_pass = false,
         install = {
            lua = {
               ["resty.mintid"] = "lua/resty/mintid.lua",
               ["resty.mintid.cdef"] = "lua/resty/mintid/cdef.lua",
               ["mintid.lease"] = "lua/mintid/lease.lua",
               ["mintid.lease.lock_file"] = "lua/mintid/lease/lock_file.lua",
               ["mintid.lease.options"] = "lua/mintid/lease/options.lua",
               ["mintid.lease.redis"] = "lua/mintid/lease/redis.lua",
            },
            lib = { mintid = "build/rock/mintid.so" },
         },
      },
      -- Windows has no pthread: the core uses SRW locks there,
      -- BCryptGenRandom for randomness, and the registry's MachineGuid for
      -- an XID's machine id (advapi32).
      windows = {
         modules = {
            ["mintid"] = { libraries = { "bcrypt", "advapi32" } },
         },
      },
   },
}
-- From a checkout: every suite, every Lua, as CI runs it (needs the Debian
-- packages of `make deps`).
test = {
   type = "command",
   command = "make test",
}
