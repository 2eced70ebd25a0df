# spec/npm/short_uuid.sh, sourced by spec/npm/run.sh once the references are
# installed in $dir: short UUIDs both ways. The reference writes texts
# (short_uuid_ref.mjs), mintid on Lua $NPM_LUA and resty.mintid on LuaJIT
# read them and write their own (short_uuid.lua), the reference checks
# those (short_uuid.mjs); prints TAP, its status in $short_uuid_rc.
# shellcheck shell=sh
# shellcheck disable=SC2154 # dir, BUILD, NPM_LUA and fail() are run.sh's
# shellcheck disable=SC2034 # short_uuid_rc is read by run.sh
short_uuid_rc=1
cp spec/npm/short_uuid_ref.mjs spec/npm/short_uuid.mjs "$dir/" &&
    node "$dir/short_uuid_ref.mjs" >"$dir/short_uuid_ref.tsv" 2>"$dir/short_uuid.log" ||
    fail "spec/npm/short_uuid_ref.mjs: the reference's texts" "$dir/short_uuid.log"
LUA_PATH="lua/?.lua;;" LUA_CPATH="$BUILD/$NPM_LUA/?.so;;" "lua$NPM_LUA" spec/npm/short_uuid.lua \
    "$dir/short_uuid_ref.tsv" >"$dir/short_uuid.tsv" 2>"$dir/short_uuid.log" ||
    fail "spec/npm/short_uuid.lua through mintid on lua$NPM_LUA" "$dir/short_uuid.log"
LUA_PATH="lua/?.lua;;" LUA_CPATH="$BUILD/jit/?.so;;" MINTID_MODULE=resty.mintid luajit spec/npm/short_uuid.lua \
    "$dir/short_uuid_ref.tsv" >>"$dir/short_uuid.tsv" 2>"$dir/short_uuid.log" ||
    fail "spec/npm/short_uuid.lua through resty.mintid on luajit" "$dir/short_uuid.log"
node "$dir/short_uuid.mjs" "$dir/short_uuid.tsv" && short_uuid_rc=0
