#!/usr/bin/env bash
# Benchmark (not a test): the type loaders against pahole 1.24 on the same
# inputs in the same run. Prints wall time, CPU time (user+sys) and peak RSS
# of each, best of RUNS runs, and the ratios ours/pahole.
#   tests/bench/types.sh [BUILD_DIR]      (RUNS=3 by default)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build}
dump=$build/tests/types/dump_types
runs=${RUNS:-3}
[ -x "$dump" ] || { echo "build first: $dump missing" >&2; exit 2; }
command -v pahole >/dev/null || { echo "pahole not installed" >&2; exit 2; }

# best CMD...: prints "wall cpu rss_kb" of the fastest run
best() {
	local i bw=999999 bc=0 bm=0 tf
	tf=$(mktemp)
	for i in $(seq "$runs"); do
		/usr/bin/time -o "$tf" -f "%e %U %S %M" "$@" >/dev/null 2>&1
		read -r w u s m <"$tf"
		if awk "BEGIN{exit !($w < $bw)}"; then
			bw=$w bc=$(awk "BEGIN{print $u + $s}") bm=$m
		fi
	done
	rm -f "$tf"
	echo "$bw $bc $bm"
}

row() { # LABEL "OURS..." "PAHOLE..."
	local label=$1 o p
	read -r ow oc om <<<"$(best $2)"
	read -r pw pc pm <<<"$(best $3)"
	printf '%-28s ours %6.2fs cpu %6.2fs %7d KB | pahole %6.2fs cpu %6.2fs %7d KB | wall %.2fx cpu %.2fx rss %.2fx\n' \
		"$label" "$ow" "$oc" "$om" "$pw" "$pc" "$pm" \
		"$(awk "BEGIN{print $ow / ($pw ? $pw : 1)}")" "$(awk "BEGIN{print $oc / ($pc ? $pc : 1)}")" \
		"$(awk "BEGIN{print $om / $pm}")"
}

libc=$(dpkg -L libc6-dbg 2>/dev/null | grep '/usr/lib/debug/.build-id/.*\.debug$' |
	xargs -r ls -S 2>/dev/null | head -1)
[ -n "$libc" ] && row "libc6-dbg (all structs)" "$dump --count $libc" "pahole $libc"
[ -n "$libc" ] && row "libc6-dbg (-C FILE)" "$dump -C _IO_FILE --count $libc" "pahole -C _IO_FILE $libc"
if [ -r /sys/kernel/btf/vmlinux ]; then
	row "kernel BTF -C task_group" "$dump --kernel -C task_group --count" \
		"pahole -C task_group /sys/kernel/btf/vmlinux"
	row "kernel BTF (all structs)" "$dump --kernel --count" "pahole /sys/kernel/btf/vmlinux"
fi
prog=$build/c2cscope/c2cscope
[ -x "$prog" ] && row "c2cscope -g (all structs)" "$dump --count $prog" "pahole $prog"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cpus: $(nproc)"
