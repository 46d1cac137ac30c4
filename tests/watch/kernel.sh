#!/usr/bin/env bash
# Kernel accesses: --all counts the kernel's copies into a watched field
# (read from /dev/zero) and names the kernel function; the default counts
# none. --kernel TYPE.field@ADDR takes the offset from the kernel's BTF, as
# pahole says. Without privileges, the errors name the cause and the fix.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/watch/watch_lib.sh"

run_c2c 0 "$TMP/user.json" "$TMP/err" watch -e counters.b --format json -- "$shared" 100 copy
expect_eq "user only: the kernel's copies are not counted" 0 \
	"$(field "$TMP/user.json" counters.b hits)"
"$C2CSCOPE" watch --all -e counters.b --format json -- "$shared" 100 copy \
	>"$TMP/all.json" 2>"$TMP/err"
rc=$?
if grep -q 'Permission denied' "$TMP/err"; then
	expect_contains "--all without privileges" "kernel.perf_event_paranoid <= 1" "$TMP/err"
else
	expect_eq "--all exit" 0 $rc
	hits=$(field "$TMP/all.json" counters.b hits)
	[ "$hits" -ge 100 ] && ok || fail "--all: $hits kernel hits for 100 copies"
	expect_eq "--all: kernel hits are not decoded" "$hits" \
		"$(field "$TMP/all.json" counters.b unknown)"
	expect_eq "--all: the kernel function is named" "True" \
		"$(json "$TMP/all.json" "all(s['symbol'] and s['symbol'] != '[unknown]' for s in d['fields'][0]['sites'])")"
fi

btf=/sys/kernel/btf/vmlinux
if [ -r $btf ] && command -v pahole >/dev/null; then
	off=$(pahole -C task_struct $btf 2>/dev/null | awk '/[ \t*]pid;/ { print $(NF - 2); exit }')
	base=0xffffffff82400000
	"$C2CSCOPE" watch --kernel -e "task_struct.pid@$base" --duration 0.2 --format json \
		>"$TMP/k.json" 2>"$TMP/err"
	if grep -q 'Permission denied' "$TMP/err"; then
		expect_contains "--kernel without privileges" "kernel.perf_event_paranoid <= 0" \
			"$TMP/err"
	else
		expect_eq "--kernel: pid's address from BTF" "$(printf '%#x' $((base + off)))" \
			"$(field "$TMP/k.json" "task_struct.pid@$base" address)"
		expect_eq "--kernel: pid's type" "pid_t" \
			"$(field "$TMP/k.json" "task_struct.pid@$base" type)"
	fi
	run_c2c 2 "$TMP/out" "$TMP/err" watch --kernel -e "task_grop.x@$base" --duration 0.1
	expect_contains "--kernel did you mean" "no struct or union task_grop; did you mean task_group?" \
		"$TMP/err"
fi

# Privileges, as an unprivileged user where this runs as root.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	nobody "$C2CSCOPE" watch --kernel -e "0xffffffff82400000/8" --duration 0.1 \
		>"$TMP/out" 2>"$TMP/err"
	expect_eq "unprivileged --kernel exit" 2 $?
	expect_contains "unprivileged --kernel: cause and fix" \
		"needs CAP_PERFMON (or root), or kernel.perf_event_paranoid <= 0 (sysctl -w kernel.perf_event_paranoid=0)" \
		"$TMP/err"
fi
finish
