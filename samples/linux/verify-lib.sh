# Functions for verify.sh (sourced; uses its variables: tarball, patchfile,
# rules, jobs, cache, work, c2c, config_options).

# ------------------------------------------------------------------ kernel

# Unpack and configure the tree once; a half-made tree is thrown away.
prepare_tree() {
	local tree=$1 parent=${1%/*} t=$SECONDS opt
	[ -f "$tree/.c2cscope-configured" ] && return 0
	rm -rf "$cache"/tree-*
	mkdir -p "$parent" || return 1
	say "unpacking $tarball (once; cached in $cache) ..."
	if ! tar -xJf "$tarball" -C "$parent"; then
		echo "verify: error: cannot unpack $tarball" >&2
		return 1
	fi
	cp "$tree/kernel/sched/sched.h" "$tree/.c2cscope-sched.h.orig" || return 1
	say "configuring: defconfig + $config_options"
	if ! (cd "$tree" && make -s defconfig &&
		scripts/config -e CGROUP_SCHED -e FAIR_GROUP_SCHED -e RT_GROUP_SCHED \
			-e CFS_BANDWIDTH -e DEBUG_INFO -d DEBUG_INFO_NONE \
			-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 \
			-e DEBUG_INFO_DWARF5 &&
		make -s olddefconfig) >"$cache/configure.log" 2>&1; then
		echo "verify: error: configuring the kernel failed; see $cache/configure.log" >&2
		return 1
	fi
	for opt in $config_options; do
		if ! grep -q "^CONFIG_$opt=y" "$tree/.config"; then
			echo "verify: error: CONFIG_$opt did not stay set in $tree/.config" >&2
			return 1
		fi
	done
	touch "$tree/.c2cscope-configured"
	say "tree ready in $((SECONDS - t)) s"
}

# build_core_o TREE unpatched|patched|suggest OUT [PATCH]: build
# kernel/sched/core.o from the pristine or the patched sched.h (PATCH,
# default $patchfile), keep it as OUT, restore the pristine file.
build_core_o() {
	local tree=$1 variant=$2 out=$3 pf=${4:-$patchfile} t=$SECONDS rc=0
	cp "$tree/.c2cscope-sched.h.orig" "$tree/kernel/sched/sched.h" || return 1
	if [ "$variant" != unpatched ] &&
		! (cd "$tree" && patch -p1 -s --fuzz=0 --no-backup-if-mismatch <"$pf"); then
		echo "verify: error: $pf does not apply to linux-source-6.1" >&2
		cp "$tree/.c2cscope-sched.h.orig" "$tree/kernel/sched/sched.h"
		return 1
	fi
	# sched.h's mtime may go backwards between variants: never trust make's.
	rm -f "$tree/kernel/sched/core.o"
	say "building kernel/sched/core.o $variant (make -j$jobs) ..."
	(cd "$tree" && make -j"$jobs" kernel/sched/core.o) >"$cache/build-$variant.log" 2>&1 || rc=$?
	cp "$tree/.c2cscope-sched.h.orig" "$tree/kernel/sched/sched.h"
	if [ $rc -ne 0 ] || [ ! -s "$tree/kernel/sched/core.o" ]; then
		echo "verify: error: building core.o ($variant) failed; last lines of $cache/build-$variant.log:" >&2
		tail -15 "$cache/build-$variant.log" >&2
		return 1
	fi
	find "$cache" -maxdepth 1 -name "core-$variant-*.o" ! -name "${out##*/}" -delete
	cp "$tree/kernel/sched/core.o" "$out.tmp" && mv "$out.tmp" "$out" || return 1
	say "built core.o ($variant) in $((SECONDS - t)) s"
}

# build_fair_o TREE OUT: kernel/sched/fair.o of the pristine tree, for
# tests/attrib/kernel_core.sh (tg->load_avg is read in update_cfs_group and
# added to in update_load_avg, both in fair.c).
build_fair_o() {
	local tree=$1 out=$2 t=$SECONDS
	cp "$tree/.c2cscope-sched.h.orig" "$tree/kernel/sched/sched.h" || return 1
	rm -f "$tree/kernel/sched/fair.o"
	say "building kernel/sched/fair.o (make -j$jobs) ..."
	if ! (cd "$tree" && make -j"$jobs" kernel/sched/fair.o) >"$cache/build-fair.log" 2>&1 ||
		[ ! -s "$tree/kernel/sched/fair.o" ]; then
		echo "verify: warning: building fair.o failed; see $cache/build-fair.log" >&2
		return 1
	fi
	find "$cache" -maxdepth 1 -name "fair-unpatched-*.o" ! -name "${out##*/}" -delete
	cp "$tree/kernel/sched/fair.o" "$out.tmp" && mv "$out.tmp" "$out" || return 1
	say "built fair.o in $((SECONDS - t)) s"
}

# ------------------------------------------------------------------ c2cscope

# True when c2cscope has COMMAND (a stub answers --help with an error).
have_c2c() {
	[ -n "$c2c" ] && "$c2c" "$1" --help >/dev/null 2>&1
}

# layout_of FILE OUT: task_group's layout, pahole-style; FILE "" is the
# running kernel's BTF. c2cscope layout when it can, else pahole; the tool
# used is left in layout_tool for the log.
layout_tool=
layout_of() {
	local file=$1 out=$2
	if have_c2c layout && "$c2c" layout -C task_group ${file:+"$file"} >"$out" 2>"$out.err" &&
		grep -q '^struct task_group {' "$out"; then
		layout_tool="c2cscope layout"
		return 0
	fi
	if have_c2c layout; then
		layout_tool="pahole (c2cscope layout: $(head -1 "$out.err"))"
	else
		layout_tool="pahole (c2cscope layout not built yet)"
	fi
	pahole -C task_group "${file:-/sys/kernel/btf/vmlinux}" 2>"$out.err" |
		grep -v 'Unknown kind' >"$out"
	grep -q '^struct task_group {' "$out"
}

# offset_of LAYOUT MEMBER / size_of LAYOUT: read pahole-style text.
offset_of() {
	awk -v m="$2" '
		/^\t[^\t\/].*;[ \t]*\/\*/ {
			decl = $0; sub(/;[ \t]*\/\*.*/, "", decl)
			gsub(/__attribute__\(\(.*\)\)/, "", decl)
			n = split(decl, w, /[ \t*]+/)
			while (n > 0 && w[n] == "") n--
			if (w[n] == m) { c = $0; sub(/.*\/\*[ \t]*/, "", c); split(c, f, /[ \t]+/); print f[1]; exit }
		}' "$1"
}

size_of() {
	sed -n 's/.*\/\* size: \([0-9]*\),.*/\1/p' "$1" | tail -1
}

# Evaluate layout.rules' task_group block on a layout text without
# c2cscope check (only the rule kinds the file uses: apart, size ==/<=).
fallback_check() {
	local layout=$1 line name off
	local -A offs=()
	for name in $(sed -n 's/^[ \t]*apart[ \t]*\([A-Za-z_0-9]*\):\(.*\)/\1 \2/p' "$rules" | tr ',' ' '); do
		off=$(offset_of "$layout" "$name")
		[ -n "$off" ] && offs[$name]=$off
	done
	awk -v size="$(size_of "$layout")" -v offs="$(for k in "${!offs[@]}"; do echo "$k=${offs[$k]}"; done)" '
		BEGIN { n = split(offs, kv, "\n"); for (i = 1; i <= n; i++) { split(kv[i], p, "="); at[p[1]] = p[2] } }
		/^[ \t]*apart/ {
			s = $0; sub(/^[ \t]*apart[ \t]*/, "", s); split(s, parts, ":")
			subj = parts[1]; gsub(/[ \t]/, "", subj)
			m = split(parts[2], names, ","); bad = ""
			if (!(subj in at)) { printf "task_group: %s: no such member\n", subj; fails++; next }
			line = int(at[subj] / 64)
			for (i = 1; i <= m; i++) {
				nm = names[i]; gsub(/[ \t]/, "", nm)
				if (!(nm in at)) continue
				if (int(at[nm] / 64) == line) bad = bad (bad ? ", " : "") nm " @" at[nm]
			}
			if (bad) { printf "task_group: apart %s: %s share %s'"'"'s cache line %d (%d..%d)\n", subj, bad, subj, line, line * 64, line * 64 + 63; fails++ }
			else printf "task_group: apart %s: ok\n", subj
		}
		/^[ \t]*size[ \t]*(==|<=)/ {
			op = $2; want = $3
			okay = (op == "==") ? size == want : size <= want
			if (okay) printf "task_group: size %s %s: ok (%s)\n", op, want, size
			else { printf "task_group: size %s %s: size is %s\n", op, want, size; fails++ }
		}
		END { exit fails ? 1 : 0 }' "$rules"
}

# check_of FILE OUT: run the rules on FILE ("" = running kernel); returns
# the check's exit status (0 pass, 1 violated, 2 error) and leaves the tool
# used in check_tool. Where c2cscope check cannot read the running kernel
# yet, the audit says why and falls back to the script's own rule reader.
check_tool=
check_of() {
	local file=$1 out=$2 rc=0 why="c2cscope check not built yet"
	if have_c2c check; then
		check_tool="c2cscope check"
		if [ -n "$file" ]; then
			"$c2c" check --rules "$rules" "$file" >"$out" 2>&1 || rc=$?
			return $rc
		fi
		"$c2c" check --rules "$rules" --kernel >"$out" 2>&1 || rc=$?
		[ $rc -ne 2 ] && return $rc
		why="c2cscope check --kernel: $(head -1 "$out")"
		rc=0
	fi
	check_tool="the script's own rule reader ($why)"
	layout_of "$file" "$out.layout" || return 2
	fallback_check "$out.layout" >"$out" 2>&1 || rc=$?
	return $rc
}

# ------------------------------------------------------------------ verdicts

# Offsets of the members the story is about, on one line.
key_offsets() {
	local m s=""
	for m in load_avg rt_se rt_rq parent; do
		s+="$m @$(offset_of "$1" "$m") "
	done
	echo "${s% }"
}

# analyse_object NAME OBJ pass|fail
analyse_object() {
	local name=$1 obj=$2 want=$3 rc=0 ok=0
	layout_of "$obj" "$work/layout-$name.txt" || {
		echo "verify: error: no task_group layout in $obj:" >&2
		cat "$work/layout-$name.txt.err" >&2
		return 1
	}
	say "$name: struct task_group $(size_of "$work/layout-$name.txt") bytes; $(key_offsets "$work/layout-$name.txt") ($layout_tool)"
	check_of "$obj" "$work/check-$name.txt" || rc=$?
	sed 's/^/    /' "$work/check-$name.txt"
	if [ "$want" = fail ]; then
		if [ $rc -eq 1 ] && grep -q 'load_avg' "$work/check-$name.txt" &&
			grep -q 'rt_se' "$work/check-$name.txt" && grep -q 'rt_rq' "$work/check-$name.txt"; then
			say "$name: the rules fail, naming rt_se and rt_rq on load_avg's line, as expected ($check_tool)"
			ok=1
		else
			say "$name: expected the rules to fail naming rt_se and rt_rq (exit 1), got exit $rc"
		fi
	elif [ $rc -eq 0 ]; then
		say "$name: the rules pass ($check_tool)"
		ok=1
	else
		say "$name: expected the rules to pass, got exit $rc"
	fi
	[ $ok -eq 1 ]
}

# compare_sizes NAME: the unpatched and NAME's task_group have one size.
compare_sizes() {
	local before after label=
	[ "$1" = patched ] || label="$1: "
	before=$(size_of "$work/layout-unpatched.txt")
	after=$(size_of "$work/layout-$1.txt")
	if [ -n "$before" ] && [ "$before" = "$after" ]; then
		say "${label}size unchanged: $before bytes"
	else
		say "${label}size changed: '$before' -> '$after' bytes"
		return 1
	fi
}

# pristine_sched_h TREE DIR: DIR/kernel/sched/sched.h as Linux 6.1 ships it
# (the tree's saved copy, else straight from the tarball).
pristine_sched_h() {
	local tree=$1 dir=$2
	mkdir -p "$dir/kernel/sched" || return 1
	if [ -r "$tree/.c2cscope-sched.h.orig" ]; then
		cp "$tree/.c2cscope-sched.h.orig" "$dir/kernel/sched/sched.h"
	else
		tar -xJf "$tarball" -O linux-source-6.1/kernel/sched/sched.h >"$dir/kernel/sched/sched.h"
	fi
}

# regenerate_suggest_patch OBJ: task_group-suggest.patch must be what
# c2cscope suggest --patch prints for OBJ (the unpatched core.o, member
# lines from its DWARF 5), everything from its "c2cscope suggest --patch:"
# line on.
regenerate_suggest_patch() {
	local obj=$1 want=$work/suggest-shipped.txt got=$work/suggest-regenerated.txt
	if ! [ -n "$c2c" ] || ! "$c2c" suggest --help 2>/dev/null | grep -q -- --patch; then
		say "suggest patch: not regenerated (no c2cscope with suggest --patch)"
		return 0
	fi
	sed -n '/^c2cscope suggest --patch:/,$p' "$suggest_patch" >"$want"
	if ! "$c2c" suggest --patch --source-dir "$work/src" -C task_group --hotness "$hotness" \
		"$obj" >"$got" 2>"$got.err"; then
		say "suggest patch: c2cscope suggest --patch failed:"
		sed 's/^/    /' "$got.err"
		return 1
	fi
	if diff -u "$want" "$got" >"$work/suggest-patch.diff"; then
		say "suggest patch: regenerated by c2cscope suggest --patch, identical to the shipped one"
	else
		say "suggest patch: the shipped patch differs from c2cscope suggest --patch's output:"
		sed 's/^/    /' "$work/suggest-patch.diff"
		return 1
	fi
}

# The model's builds must print exactly the kernel's layouts.
compare_model() {
	local dir=$1 build name rc=0
	for build in upstream:unpatched reordered:patched; do
		name=${build%%:*}
		layout_of "$dir/sched-core-$name" "$work/layout-model-$name.txt" || {
			say "model: no task_group in $dir/sched-core-$name"
			rc=1
			continue
		}
		if diff -u "$work/layout-${build##*:}.txt" "$work/layout-model-$name.txt" \
			>"$work/model-$name.diff"; then
			say "model: sched-core-$name's task_group is identical to the ${build##*:} kernel's"
		else
			say "model: sched-core-$name's task_group differs from the ${build##*:} kernel's:"
			sed 's/^/    /' "$work/model-$name.diff" | head -30
			rc=1
		fi
	done
	return $rc
}

# What the same rules say about the kernel this machine runs (BTF).
audit_running_kernel() {
	local rc=0 release
	release=$(uname -r)
	if [ ! -r /sys/kernel/btf/vmlinux ]; then
		say "audit: the running kernel ($release) has no BTF; skipped"
		return 0
	fi
	if ! layout_of "" "$work/layout-running.txt"; then
		say "audit: no task_group in the running kernel's BTF ($release); skipped"
		return 0
	fi
	say "audit: running kernel $release: struct task_group $(size_of "$work/layout-running.txt") bytes; $(key_offsets "$work/layout-running.txt")"
	check_of "" "$work/check-running.txt" || rc=$?
	sed 's/^/    /' "$work/check-running.txt"
	case $rc in
	0) say "audit: running kernel $release passes the rules ($check_tool)" ;;
	1) say "audit: running kernel $release violates the rules, informational ($check_tool)" ;;
	*) say "audit: could not check the running kernel (exit $rc)" ;;
	esac
	return 0
}
