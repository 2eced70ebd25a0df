#!/bin/sh
# spec/npm/run.sh: the npm references read back what mintid mints (make
# test-npm, and a stage of make test); prints TAP. Installs the references
# (uuid, ksuid, typeid-js, @sapphire/snowflake, sonyflake, snowflake-id,
# short-uuid, @paralleldrive/cuid2, bson, xid-ts, sqids, pinned) into $BUILD/npm, never into the tree; has
# spec/npm/mint.lua write IDs of every kind they read, with their fields,
# through mintid on Lua $NPM_LUA and through resty.mintid on LuaJIT; then
# spec/npm/check.mjs parses each with the references.
set -u
BUILD=${BUILD:-build}
NPM_LUA=${NPM_LUA:-5.4}
REFERENCES="uuid@14.0.3 ksuid@3.0.0 typeid-js@1.2.0 @sapphire/snowflake@3.5.5 sonyflake@1.1.2 snowflake-id@1.1.0
    short-uuid@6.0.3 @paralleldrive/cuid2@3.3.0 bson@7.3.4 xid-ts@1.3.0 sqids@0.3.0"
dir=$BUILD/npm

# fail MESSAGE [LOG]: one failing test, with the log as TAP comments
fail() {
    echo "not ok 1 - $1"
    [ -n "${2:-}" ] && sed 's/^/# /' "$2"
    exit 1
}

command -v node >/dev/null && command -v npm >/dev/null ||
    fail "node and npm not found (make deps installs Debian's nodejs and npm)"
mkdir -p "$dir" || exit 1
# shellcheck disable=SC2086 # one package a word
npm install --prefix "$dir" --no-audit --no-fund --prefer-offline --loglevel=error $REFERENCES \
    >"$dir/install.log" 2>&1 || fail "npm install $REFERENCES" "$dir/install.log"

# ObjectIds and XIDs the references mint, which mint.lua reads back (NPM_REFS)
cp spec/npm/objectid_xid_refs.mjs "$dir/objectid_xid_refs.mjs" || exit 1
node "$dir/objectid_xid_refs.mjs" >"$dir/refs.jsonl" 2>"$dir/refs.log" ||
    fail "spec/npm/objectid_xid_refs.mjs" "$dir/refs.log"
export NPM_REFS="$dir/refs.jsonl"

ids=$dir/ids.jsonl
# The reference's own CUID2s, for mint.lua to read back with is_cuid2.
cp spec/npm/cuid2_reference.mjs "$dir/cuid2_reference.mjs" || exit 1
node "$dir/cuid2_reference.mjs" >"$dir/cuid2_reference.txt" 2>"$dir/mint.log" ||
    fail "spec/npm/cuid2_reference.mjs" "$dir/mint.log"
CUID2_REFERENCE=$dir/cuid2_reference.txt
export CUID2_REFERENCE
LUA_PATH="lua/?.lua;;" LUA_CPATH="$BUILD/$NPM_LUA/?.so;;" "lua$NPM_LUA" spec/npm/mint.lua >"$ids" 2>"$dir/mint.log" ||
    fail "spec/npm/mint.lua through mintid on lua$NPM_LUA" "$dir/mint.log"
LUA_PATH="lua/?.lua;;" LUA_CPATH="$BUILD/jit/?.so;;" MINTID_MODULE=resty.mintid luajit spec/npm/mint.lua \
    >>"$ids" 2>"$dir/mint.log" || fail "spec/npm/mint.lua through resty.mintid on luajit" "$dir/mint.log"

# ES modules resolve packages from the script's own folder
cp spec/npm/check.mjs "$dir/check.mjs" || exit 1
node "$dir/check.mjs" "$ids"
rc=$?

# Sqids (spec/npm/sqids.lua, sqids.mjs): thousands of IDs of random option
# sets, the reference's exact text; and the blocklist mintid ships.
sqids=$dir/sqids.jsonl
LUA_PATH="lua/?.lua;;" LUA_CPATH="$BUILD/$NPM_LUA/?.so;;" "lua$NPM_LUA" spec/npm/sqids.lua >"$sqids" 2>"$dir/mint.log" ||
    fail "spec/npm/sqids.lua through mintid on lua$NPM_LUA" "$dir/mint.log"
LUA_PATH="lua/?.lua;;" LUA_CPATH="$BUILD/jit/?.so;;" MINTID_MODULE=resty.mintid luajit spec/npm/sqids.lua \
    >>"$sqids" 2>"$dir/mint.log" || fail "spec/npm/sqids.lua through resty.mintid on luajit" "$dir/mint.log"
cp spec/npm/sqids.mjs "$dir/sqids.mjs" || exit 1
node "$dir/sqids.mjs" "$sqids" src/sqids_blocklist.c || rc=1
# Short UUIDs, both ways (spec/npm/short_uuid.sh)
. spec/npm/short_uuid.sh
[ "$rc" -eq 0 ] && [ "$short_uuid_rc" -eq 0 ]
