#!/bin/sh
# The thread tests (make test-threads): test_threads as built, then the
# native thread tests built with ThreadSanitizer, then test_threads under
# valgrind's helgrind. Prints TAP; a data race (TSan exits 66, helgrind 3)
# or any other non-zero exit without a failing test fails (spec/tap.sh's
# tap_count). die_after_fork=0: test_threads has a forked child start a thread,
# which TSan allows only so.
BUILD=${BUILD:-build}
status=0
. spec/tap.sh

# run NAME COMMAND...: the command's TAP lines, and its other output when it fails
run() {
    name=$1
    shift
    echo "# $name"
    "$@" > "$BUILD/threads-check.log" 2>&1
    rc=$?
    grep '^ok \|^not ok ' "$BUILD/threads-check.log"
    [ "$rc" -ne 0 ] && grep -v '^ok \|^not ok ' "$BUILD/threads-check.log" | head -40 | sed 's/^/# /'
    tap_count "$name" "$rc" "$BUILD/threads-check.log"
    [ "$notok" -eq 0 ] || status=1
}

run "test_threads" "$BUILD/test_threads"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0 ${TSAN_OPTIONS:-}"
run "ThreadSanitizer: test_default" "$BUILD/tsan/test_default"
run "ThreadSanitizer: test_threads" "$BUILD/tsan/test_threads"
run "ThreadSanitizer: test_vectors" "$BUILD/tsan/test_vectors" testdata
run "ThreadSanitizer: embedding host" "$BUILD/tsan/host" examples/embed/script.lua
run "helgrind: test_threads" valgrind -q --tool=helgrind --error-exitcode=3 \
    --suppressions=spec/helgrind.supp "$BUILD/test_threads" helgrind
exit $status
