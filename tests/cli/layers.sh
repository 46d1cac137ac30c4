#!/usr/bin/env bash
# The floors: every #include of the engine (src/<module>/) names its own
# module or one below it in README.md's module table (bottom to top), so
# no arrow runs up a floor; the Valgrind tool (plugins/valgrind/) takes
# only src/perf/mem_src.h of the engine, and only src/sim/ reads the
# tool's stream format. The table is parsed from the README itself, so
# the map and the code cannot drift apart. The tool's own files are
# layered too (c2csim_main.c lists them): its objects, when built, refer
# only to names the files below define.
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

# the tool's own floors, as c2csim_main.c lists them: each object refers
# only to what the files below it define (no call up, none across a floor)
obj=$TOP_BUILDDIR/plugins/valgrind/obj
if [ -f "$obj/c2csim_main.o" ] && command -v nm >/dev/null; then
	declare -A floor=([c2csim_opts]=0 [c2csim_thread]=1 [c2csim_out]=2 [c2csim_sim]=3
		[c2csim_heap]=3 [c2csim_sched]=3 [c2csim_ir]=4 [c2csim_main]=5)
	declare -A owner
	for o in "$obj"/*.o; do
		n=$(basename "$o" .o)
		[ -n "${floor[$n]:-}" ] || fail "plugins/valgrind/$n.c: not in this test's floors"
		for sym in $(nm -g --defined-only "$o" | awk '{ print $3 }'); do
			owner[$sym]=$n
		done
	done
	for o in "$obj"/*.o; do
		n=$(basename "$o" .o)
		for sym in $(nm -u "$o" | awk '{ print $2 }'); do
			d=${owner[$sym]:-}
			[ -n "$d" ] || continue # Valgrind's core
			if [ "${floor[$d]}" -lt "${floor[$n]:-0}" ]; then
				ok
			else
				fail "plugins/valgrind/$n.c uses $sym of $d.c, not below it"
			fi
		done
		bad=$(nm -g --defined-only "$o" | awk '{ print $3 }' | grep -Ev '^(c2csim_|vgPlain_|_vgr|vgCore|__)' |
			tr '\n' ' ')
		expect_eq "plugins/valgrind/$n.c: extern names without the c2csim_ prefix" "" "$bad"
	done
fi
finish
