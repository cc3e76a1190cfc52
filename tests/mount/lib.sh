# Shared by the real-mount test scripts: counted checks, mount waiting, EIO.
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
# check NAME COMMAND...: passes when COMMAND exits 0; shows its last lines otherwise.
# A check that took 20 s or more says so: a CI log then shows where a slow run spent its time.
check() {
    local name=$1; shift; local out; local began=$SECONDS
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name"; printf "%s\n" "$out" | tail -5 | sed "s/^/     | /"; fi
    [ $((SECONDS - began)) -lt 20 ] || echo "     (took $((SECONDS - began)) s)"
}
unmount() { mountpoint -q "$1" && fusermount3 -u "$1"; for _ in $(seq 50); do mountpoint -q "$1" || return 0; sleep 0.1; done; }
# stop_daemon SIGNAL PID: signals a daemon run with -f and waits for it, 30 s at most. One that does
# not end is a failed check, shown thread by thread (where each sleeps in the kernel), then killed.
stop_daemon() {
    kill -"$1" "$2" 2>/dev/null
    for _ in $(seq 300); do kill -0 "$2" 2>/dev/null || { wait "$2"; return; }; sleep 0.1; done
    fail "daemon $2 ends on SIG$1 (still running after 30 s; its threads wait in:)"
    for t in /proc/"$2"/task/*; do echo "     | $(cat "$t/comm" "$t/wchan" 2>/dev/null | tr '\n' ' ')"; done
    kill -9 "$2"; wait "$2"; return 1
}
wait_mounted() { for _ in $(seq 100); do mountpoint -q "$1" && return 0; sleep 0.05; done; return 1; }
# eio_at FILE: reading FILE fails with "Input/output error".
eio_at() { local out; out=$(cat "$1" 2>&1 >/dev/null); [[ $out == *"Input/output error"* ]] || { echo "$1: ${out:-read fine}"; return 1; }; }
# eio_at_open FILE: open(2) itself answers EIO (the damage is known from headers, before a read).
eio_at_open() {
    python3 -c 'import errno, os, sys
try:
    os.close(os.open(sys.argv[1], os.O_RDONLY))
except OSError as e:
    sys.exit(0 if e.errno == errno.EIO else 1)
sys.exit("%s: opens" % sys.argv[1])' "$1"
}
# finish NAME: the closing line CI reads, and the exit status.
finish() { echo "$1 tests: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; }
