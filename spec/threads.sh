#!/bin/sh
# The thread tests (make test-threads): test_threads as built, then the
# native thread tests built with ThreadSanitizer, then test_threads under
# valgrind's helgrind. Prints TAP; a data race (TSan exits 66, helgrind 3)
# or any other non-zero exit without a failing test becomes one "not ok"
# line. die_after_fork=0: test_threads has a forked child start a thread,
# which TSan allows only so.
BUILD=${BUILD:-build}
status=0

# run NAME COMMAND...: the command's TAP lines, and its failure as one more
run() {
    name=$1
    shift
    echo "# $name"
    "$@" > "$BUILD/threads-check.log" 2>&1
    rc=$?
    grep '^ok \|^not ok ' "$BUILD/threads-check.log"
    if [ "$rc" -ne 0 ]; then
        grep -v '^ok \|^not ok ' "$BUILD/threads-check.log" | head -40 | sed 's/^/# /'
        grep -q '^not ok ' "$BUILD/threads-check.log" || echo "not ok - $name exited with status $rc"
        status=1
    fi
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
