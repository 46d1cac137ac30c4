#!/usr/bin/env bash
# Verify samples/linux/task_group-reorder.patch (hand-written, the upstream
# order) and task_group-suggest.patch (c2cscope suggest --patch's output)
# on the real kernel:
# unpack Debian's linux-source-6.1, configure defconfig + CGROUP_SCHED,
# FAIR_GROUP_SCHED, RT_GROUP_SCHED, CFS_BANDWIDTH, DEBUG_INFO_DWARF5, build
# kernel/sched/core.o unpatched and patched, and check struct task_group in
# all against samples/sched-core/layout.rules: the unpatched object must
# fail (rt_se and rt_rq on load_avg's line), both patched ones must pass,
# and the size must not change. task_group-suggest.patch is regenerated
# with c2cscope suggest --patch from the unpatched object's DWARF and must
# be identical below its header. Then audit the running kernel's BTF with
# the same rules (informational: it never changes the exit code).
#
# usage: verify.sh [--keep DIR] [--c2cscope BIN] [--cache DIR] [--model DIR]
#                  [--no-audit]
#   --keep DIR      keep both objects, build logs and layouts in DIR
#   --c2cscope BIN  the c2cscope to use (default: $C2CSCOPE, then the build
#                   tree's, then PATH); without one, pahole does the layouts
#   --cache DIR     where the unpacked, configured tree and the built
#                   objects are kept between runs (default:
#                   $C2CSCOPE_CACHE_DIR, else /var/cache/c2cscope when
#                   writable, else ${XDG_CACHE_HOME:-~/.cache}/c2cscope).
#                   Objects are keyed by the tarball, the config and the
#                   patch's hash, so a rerun (or CI's second pass) is quick.
#   --model DIR     also compare task_group in the sched-core model's builds
#                   (DIR holds sched-core-upstream and -reordered) with the
#                   kernel objects: the layouts must be identical
#   --no-audit      skip the audit of the running kernel's BTF
# Environment: LINUX_SOURCE_TARBALL (default /usr/src/linux-source-6.1.tar.xz),
# VERIFY_JOBS (make -j, default 2).
# Exit: 0 verified, 1 verification failed, 2 usage or build error,
# 77 linux-source-6.1 is not installed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
patchfile=$here/task_group-reorder.patch
suggest_patch=$here/task_group-suggest.patch
hotness=$here/task_group.hotness
rules=$top/samples/sched-core/layout.rules
jobs=${VERIFY_JOBS:-2}
keep= c2c=${C2CSCOPE:-} cache=${C2CSCOPE_CACHE_DIR:-} model= audit=1
# Bump when the way the tree is configured changes (invalidates caches).
config_options="CGROUP_SCHED FAIR_GROUP_SCHED RT_GROUP_SCHED CFS_BANDWIDTH DEBUG_INFO_DWARF5"
recipe_version=1

say() { echo "verify: $*"; }
die() { echo "verify: error: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--keep) keep=${2:?--keep needs a folder}; shift 2 ;;
	--c2cscope) c2c=${2:?--c2cscope needs a path}; shift 2 ;;
	--cache) cache=${2:?--cache needs a folder}; shift 2 ;;
	--model) model=${2:?--model needs a folder}; shift 2 ;;
	--no-audit) audit=0; shift ;;
	-h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	*) echo "verify: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

if [ ! -r "$tarball" ]; then
	echo "verify: $tarball not found: install the Debian package linux-source-6.1" >&2
	exit 77
fi
for tool in make gcc flex bison bc patch flock sha256sum xz; do
	command -v "$tool" >/dev/null || die "'$tool' is needed to build the kernel object"
done
[ -r "$patchfile" ] || die "$patchfile is missing"
[ -r "$suggest_patch" ] || die "$suggest_patch is missing"
[ -r "$rules" ] || die "$rules is missing"

if [ -z "$c2c" ]; then
	for cand in "$top/build/c2cscope/c2cscope" "$(command -v c2cscope 2>/dev/null)"; do
		[ -n "$cand" ] && [ -x "$cand" ] && { c2c=$cand; break; }
	done
fi
if [ -z "$cache" ]; then
	if mkdir -p /var/cache/c2cscope 2>/dev/null && [ -w /var/cache/c2cscope ]; then
		cache=/var/cache/c2cscope
	else
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/c2cscope
	fi
fi
mkdir -p "$cache/linux-6.1" || die "cannot create the cache folder $cache/linux-6.1"
cache=$(cd "$cache/linux-6.1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/c2c-verify.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$work"' EXIT

source "$here/verify-lib.sh"

start=$SECONDS
tree_key=$( (stat -c '%s %Y' "$tarball"; echo "$config_options $recipe_version") |
	sha256sum | cut -c1-16)
patch_key=$(sha256sum <"$patchfile" | cut -c1-16)
unpatched_obj=$cache/core-unpatched-$tree_key.o
patched_obj=$cache/core-patched-$tree_key-$patch_key.o
suggest_obj=$cache/core-suggest-$tree_key-$(sha256sum <"$suggest_patch" | cut -c1-16).o
# not verified here: tests/attrib/kernel_core.sh samples its update_cfs_group
fair_obj=$cache/fair-unpatched-$tree_key.o

# One verify at a time builds in the shared tree; the others wait and reuse.
exec 9>"$cache/lock"
flock -w 900 9 || die "waited 15 minutes for $cache/lock"
tree=$cache/tree-$tree_key/linux-source-6.1
if [ -s "$unpatched_obj" ] && [ -s "$patched_obj" ] && [ -s "$suggest_obj" ] && [ -s "$fair_obj" ]; then
	say "kernel objects cached in $cache (tree $tree_key, patch $patch_key)"
else
	prepare_tree "$tree" || exit 2
	[ -s "$unpatched_obj" ] || build_core_o "$tree" unpatched "$unpatched_obj" || exit 2
	[ -s "$patched_obj" ] || build_core_o "$tree" patched "$patched_obj" || exit 2
	[ -s "$suggest_obj" ] || build_core_o "$tree" suggest "$suggest_obj" "$suggest_patch" ||
		exit 2
	[ -s "$fair_obj" ] || build_fair_o "$tree" "$fair_obj" ||
		say "fair.o not built: the kernel attribution tests skip its part"
fi
pristine_sched_h "$tree" "$work/src" || exit 2
exec 9>&-
say "kernel objects ready after $((SECONDS - start)) s"

verdict=0
analyse_object unpatched "$unpatched_obj" fail || verdict=1
analyse_object patched "$patched_obj" pass || verdict=1
compare_sizes patched || verdict=1
analyse_object suggest "$suggest_obj" pass || verdict=1
compare_sizes suggest || verdict=1
regenerate_suggest_patch "$unpatched_obj" || verdict=1
[ -z "$model" ] || compare_model "$model" || verdict=1
[ "$audit" = 0 ] || audit_running_kernel

if [ -n "$keep" ]; then
	mkdir -p "$keep" || die "cannot create $keep"
	cp "$unpatched_obj" "$keep/core-unpatched.o"
	cp "$patched_obj" "$keep/core-patched.o"
	cp "$suggest_obj" "$keep/core-suggest.o"
	cp "$work"/*.txt "$keep/" 2>/dev/null
	cp "$cache"/*.log "$keep/" 2>/dev/null
	say "kept objects, layouts and logs in $keep"
fi
if [ $verdict -eq 0 ]; then
	say "OK: the patch moves rt_se, rt_rq and parent off load_avg's line, and so does task_group-suggest.patch; size unchanged ($((SECONDS - start)) s)"
else
	say "FAILED ($((SECONDS - start)) s)"
fi
exit $verdict
