#!/bin/sh
# The native thread tests built with ThreadSanitizer (make test-tsan):
# each prints TAP; a data race (TSan exits 66) or any other non-zero exit
# without a failing test becomes one "not ok" line here. die_after_fork=0:
# test_threads has a forked child start a thread, which TSan allows only so.
BUILD=${BUILD:-build}
status=0
for t in test_default test_threads test_vectors host; do
    case $t in
        test_vectors) args=testdata ;;
        host) args=examples/embed/script.lua ;;
        *) args= ;;
    esac
    echo "# ThreadSanitizer: $t"
    TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0 ${TSAN_OPTIONS:-}" "$BUILD/tsan/$t" $args > "$BUILD/tsan/$t.log" 2>&1
    rc=$?
    grep '^ok \|^not ok ' "$BUILD/tsan/$t.log"
    if [ "$rc" -ne 0 ]; then
        grep -v '^ok \|^not ok ' "$BUILD/tsan/$t.log" | head -40
        grep -q '^not ok ' "$BUILD/tsan/$t.log" || echo "not ok - tsan $t exited with status $rc"
        status=1
    fi
done
exit $status
