#!/usr/bin/env bash
# The false-sharing samples, fixed by suggest --patch: record the sample
# under the simulator, take the profile from that perf.data (suggest
# --profile, where this c2cscope has it; else from a hotness file that says
# the same), emit the patch for a copy of the sample's source, apply it with patch
# -p1, rebuild, record again under the simulator, and show that the HITMs
# between different fields are gone (what remains is true sharing: one
# field written by several threads, such as the lock word itself).
# adjacent: two counters in 16 bytes, so only "isolate" separates them;
# lockword: the lock and the counter it guards beside read-mostly fields.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require
perf_require
command -v patch >/dev/null || skip "patch(1) is not installed"
fs=$TOP_SRCDIR/samples/false-sharing

profile_opt=--hotness
"$C2CSCOPE" suggest --help 2>&1 | grep -q -- '--profile' && profile_opt=--profile

# build NAME: $TMP/NAME/orig/NAME from a copy of the sample
build() {
	mkdir -p "$TMP/$1/orig" "$TMP/$1/fixed"
	cp "$fs/$1.c" "$TMP/$1/orig/"
	cp "$fs/$1.c" "$TMP/$1/fixed/"
	(cd "$TMP/$1/orig" && ${CC:-gcc} -g -O2 -pthread -o "$1" "$1.c") || {
		fail "$1: build"
		return 1
	}
}

# fix NAME STRUCT HOTNESS DATA: NAME.patch from DATA's profile (or the
# hotness file), applied to $TMP/NAME/fixed and built there
fix() {
	local name=$1 st=$2 hot=$3 data=$4 prof=$3
	[ "$profile_opt" = --profile ] && prof=$data
	run_c2c 0 "$TMP/$name.patch" "$TMP/$name.err" suggest --patch --choose isolate \
		--source-dir "$TMP/$name/orig" -C "$st" "$profile_opt" "$prof" "$TMP/$name/orig/$name"
	patch_and_build "$TMP/$name/fixed" "$TMP/$name.patch" "$name" || return 1
	ok
}

# --- adjacent: each thread increments its own counter -------------------
cat >"$TMP/adjacent.hot" <<'H'
struct counters
a  read_write  ctx=thread_a
b  read_write  ctx=thread_b
H
N=3000
if build adjacent; then
	sim_record "$TMP/a0.data" "$TMP/a0.err" -- "$TMP/adjacent/orig/adjacent" $N
	before=$(hitm_lines "$TMP/a0.data" bump | awk '{ n += $2 } END { print n + 0 }')
	[ "$before" -ge $N ] && ok || fail "adjacent: bump's HITMs before the patch: $before < $N"
fi
if [ -x "$TMP/adjacent/orig/adjacent" ] && fix adjacent counters "$TMP/adjacent.hot" "$TMP/a0.data"; then
	expect_contains "adjacent: a wrapped" "+		long a;" "$TMP/adjacent.patch"
	expect_contains "adjacent: b wrapped" "+		long b;" "$TMP/adjacent.patch"
	expect_contains "adjacent: the cost" "size 16 -> 128 bytes, conflicting field pairs" \
		"$TMP/adjacent.patch"
	expect_contains "adjacent: nothing left" " -> 0" "$TMP/adjacent.patch"
	sim_record "$TMP/a1.data" "$TMP/a1.err" -- "$TMP/adjacent/fixed/adjacent" $N
	expect_contains "adjacent: still counts" "a=$N b=$N" "$TMP/stdout"
	a=$(printed '&a' "$TMP/stdout")
	b=$(printed '&b' "$TMP/stdout")
	[ "$(line_of "$a")" != "$(line_of "$b")" ] && ok || fail "adjacent: a and b still share a line"
	# (a handful elsewhere: the globals main wrote before starting them)
	expect_eq "adjacent: bump's HITMs on a's line after the patch" 0 \
		"$(hitms_on "$TMP/a1.data" "$(line_of "$a")" bump)"
	expect_eq "adjacent: bump's HITMs on b's line after the patch" 0 \
		"$(hitms_on "$TMP/a1.data" "$(line_of "$b")" bump)"
fi

# --- lockword: writers take the lock, readers read limit and scale -------
cat >"$TMP/lockword.hot" <<'H'
struct config
lock     read_write   ctx=writers
updates  read_write   ctx=writers
limit    read_mostly  ctx=readers
scale    read_mostly  ctx=readers
H
N=2000
if build lockword; then
	sim_record "$TMP/l0.data" "$TMP/l0.err" --sim-cpus 4 --sim-nodes 2 -- \
		"$TMP/lockword/orig/lockword" $N
	limit=$(line_of "$(printed '&limit' "$TMP/stdout")")
	before=$(hitms_on "$TMP/l0.data" "$limit" reader)
	[ "$before" -gt 0 ] && ok || fail "lockword: no reader HITMs on limit's line before the patch"
fi
if [ -x "$TMP/lockword/orig/lockword" ] && fix lockword config "$TMP/lockword.hot" "$TMP/l0.data"; then
	expect_contains "lockword: lock wrapped" "+		int lock;" "$TMP/lockword.patch"
	expect_contains "lockword: the inactive PADDED block stays" " #ifdef PADDED" "$TMP/lockword.patch"
	sim_record "$TMP/l1.data" "$TMP/l1.err" --sim-cpus 4 --sim-nodes 2 -- \
		"$TMP/lockword/fixed/lockword" $N
	expect_contains "lockword: still counts" "updates=$((2 * N))" "$TMP/stdout"
	lock=$(line_of "$(printed '&lock' "$TMP/stdout")")
	limit=$(line_of "$(printed '&limit' "$TMP/stdout")")
	[ "$lock" != "$limit" ] && ok || fail "lockword: lock and limit still share a line"
	expect_eq "lockword: readers' HITMs on limit's line after the patch" 0 \
		"$(hitms_on "$TMP/l1.data" "$limit" reader)"
	# On the struct's lines, what remains is on the lock's and updates'
	# own lines: one field each, written by both writers (true sharing).
	off() { sed -n "s/^  $1 \([0-9]*\)$/\1/p" "$TMP/lockword.patch"; }
	base=$(($(printed '&lock' "$TMP/stdout") - $(off lock)))
	upd=$(line_of $base "$(off updates)")
	hitm_lines "$TMP/l1.data" >"$TMP/l1.lines"
	: >"$TMP/l1.other"
	while read -r line n; do
		[ $((line)) -ge $base ] && [ $((line)) -lt $((base + 192)) ] &&
			[ "$line" != "$lock" ] && [ "$line" != "$upd" ] && echo "$line $n" >>"$TMP/l1.other"
	done <"$TMP/l1.lines"
	[ -s "$TMP/l1.lines" ] && ok || fail "lockword: no HITM lines at all after the patch"
	expect_eq "lockword: on the struct, HITMs only on lock's and updates' lines" "" \
		"$(cat "$TMP/l1.other")"
	[ "$(hitms_on "$TMP/l1.data" "$upd")" -gt 0 ] && ok ||
		fail "lockword: the writers' true sharing on updates is not seen"
fi
echo "profile from: $profile_opt"
finish
