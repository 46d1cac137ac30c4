# Shared by the watch tests (sourced after tests/lib.sh): build the two-field
# program, skip where hardware breakpoints or python3 are missing.
command -v python3 >/dev/null || skip "python3 needed to read the JSON"
src=$TOP_SRCDIR/tests/watch/pair.c
shared=$TMP/pair
padded=$TMP/pair_padded
compile "$shared" "$src" -O1 -g -pthread || finish
compile "$padded" "$src" -O1 -g -pthread -DPADDED || finish

# Can this machine watch at all? One hit on each field of a short run.
"$C2CSCOPE" watch -e counters.a -- "$shared" 1 >"$TMP/probe.out" 2>"$TMP/probe.err"
case $? in
0) ;;
*)
	grep -qE 'no hardware breakpoints|perf_event_open|CAP_PERFMON|debug register' \
		"$TMP/probe.err" && skip "no usable hardware breakpoints here: $(cat "$TMP/probe.err")"
	;;
esac

# json FILE EXPR: a Python expression over the document d
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# field FILE NAME KEY
field() { json "$1" "[f for f in d['fields'] if f['name'] == '$2'][0]['$3']"; }
# line_of PATTERN: the line of pair.c holding PATTERN (the compiler's truth)
line_of() { grep -n -- "$1" "$src" | head -1 | cut -d: -f1; }
