#!/usr/bin/env bash
# The floors: every #include of the engine (src/<module>/) names its own
# module or one below it in README.md's module table (bottom to top), so
# no arrow runs up a floor; the Valgrind tool (plugins/valgrind/) takes
# only src/perf/mem_src.h of the engine, and only src/sim/ reads the
# tool's stream format. The table is parsed from the README itself, so
# the map and the code cannot drift apart.
source "$TOP_SRCDIR/tests/lib.sh"

mapfile -t order < <(sed -n '/^## Layout/,/^## /s/^| `src\/\([a-z0-9_]*\)\/` |.*/\1/p' \
	"$TOP_SRCDIR/README.md")
[ "${#order[@]}" -gt 10 ] && ok || fail "README.md: no module table under ## Layout (${#order[@]} rows)"
declare -A rank
for i in "${!order[@]}"; do
	rank[${order[$i]}]=$i
done

# every module folder is in the table
for d in "$TOP_SRCDIR"/src/*/; do
	m=$(basename "$d")
	[ -n "${rank[$m]:-}" ] && ok || fail "src/$m is not in README.md's module table"
done

# includes go down (or stay in the module)
for f in "$TOP_SRCDIR"/src/*/*.[ch]; do
	m=$(basename "$(dirname "$f")")
	[ -n "${rank[$m]:-}" ] || continue
	while read -r inc; do
		case $inc in
		../../plugins/valgrind/c2csim_proto.h)
			[ "$m" = sim ] && ok || fail "${f#"$TOP_SRCDIR"/}: includes the tool's stream format"
			continue
			;;
		*/*) ;;
		*) continue ;; # config.h, a file of the same folder
		esac
		to=${inc%%/*}
		if [ -z "${rank[$to]:-}" ]; then
			fail "${f#"$TOP_SRCDIR"/}: includes \"$inc\", outside the module table"
		elif [ "${rank[$to]}" -gt "${rank[$m]}" ]; then
			fail "${f#"$TOP_SRCDIR"/}: includes \"$inc\": $to is above $m in README.md's table"
		else
			ok
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

# the tool: its own headers and mem_src
for f in "$TOP_SRCDIR"/plugins/valgrind/*.[ch]; do
	bad=$(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | grep / | grep -vx 'perf/mem_src.h' | tr '\n' ' ')
	expect_eq "${f#"$TOP_SRCDIR"/}: engine headers other than perf/mem_src.h" "" "$bad"
done
finish
