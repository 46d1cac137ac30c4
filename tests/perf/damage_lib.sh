# Shared by the damage tests (sourced after tests/lib.sh; needs DUMP).

# patch_bytes FILE OFFSET HEXBYTES: overwrite bytes in place
patch_bytes() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# dump_expect WHAT EXIT NEEDLE FILE: perf_dump's exit and message
dump_expect() {
	local what=$1 want=$2 needle=$3 file=$4 rc
	"$DUMP" -F tid,time,ip "$file" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "$what: exit" "$want" "$rc"
	expect_contains "$what: message" "$needle" "$TMP/err"
	if grep -qE 'Sanitizer|runtime error' "$TMP/err"; then
		fail "$what: sanitizer report"
	fi
}
