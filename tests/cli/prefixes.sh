#!/usr/bin/env bash
# Symbol hygiene: every extern symbol of the engine (src/<module>/*.c, as
# built) carries its module's prefix, so that nothing lands in libpfm4's,
# libtracefs' or libdw's namespace, or in nobody's (a link with another
# library could pick the wrong one). The prefixes per module are below; a
# new module must add its own.
source "$TOP_SRCDIR/tests/lib.sh"
command -v nm >/dev/null || skip "nm (binutils) is not installed"

declare -A prefix=(
	[attrib]='attrib_'
	[c2c]='c2c_'
	[gate]='gate_|ruleset_|rule_|diff_|baseline_'
	[heap]='heap_'
	[layout]='layout_'
	[fmt]='html_|svg_|table_|json_'
	[perf]='perf_|reader_|writer_|mem_src_'
	[placement]='placement_|task_placement_'
	[profile]='profile_'
	[record]='record_'
	[sim]='sim_'
	[suggest]='suggest_|propose_|proposer_'
	[symbols]='sym_|addr_spaces_|kallsyms_'
	[tui]='tui_'
	[types]='type_'
	[watch]='watch_'
	# the utilities: one prefix per file, the allocators are x*()
	[util]='arena_|bitmap_|err_|hash_|hashmap_|int_list_|cpu_list_|progress_|similar_|strbuf_|strpool_|x(malloc|calloc|realloc|grow|strdup|strndup)'
)

n=0
for src in "$TOP_SRCDIR"/src/*/*.c; do
	m=$(basename "$(dirname "$src")")
	obj="$TOP_BUILDDIR/src/$m/$(basename "${src%.c}").o"
	[ -f "$obj" ] || continue
	n=$((n + 1))
	if [ -z "${prefix[$m]:-}" ]; then
		fail "src/$m: no prefix rule in tests/cli/prefixes.sh"
		continue
	fi
	# (names with __ are the compiler's: ASan's __odr_asan.* and the like)
	bad=$(nm -g --defined-only "$obj" | awk '$2 ~ /^[TDBRVW]$/ && $3 !~ /^__/ { print $3 }' |
		grep -Ev "^(${prefix[$m]})" | tr '\n' ' ')
	expect_eq "src/$m/$(basename "$src"): symbols without a ${prefix[$m]} prefix" "" "$bad"
done
[ "$n" -gt 20 ] && ok || fail "only $n engine objects found under $TOP_BUILDDIR/src"
finish
