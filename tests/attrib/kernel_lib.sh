# shellcheck shell=bash
# Helpers for the kernel attribution tests (sourced after tests/lib.sh): the
# cached Linux 6.1 objects that samples/linux/verify.sh builds, a kallsyms
# that puts their functions at kernel addresses, and the instructions to
# sample, found in the objects' own disassembly.

# need_tools TOOL...: skip the test when one is missing
need_tools() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null || skip "$tool not installed"
	done
}

# cached_object NAME: the newest $cache/linux-6.1/NAME-unpatched-*.o, or "".
cached_object() {
	local dir f obj=
	for dir in ${C2CSCOPE_CACHE_DIR:-} /var/cache/c2cscope "${XDG_CACHE_HOME:-$HOME/.cache}/c2cscope"; do
		[ -n "$dir" ] || continue
		for f in "$dir"/linux-6.1/"$1"-unpatched-*.o; do
			[ -r "$f" ] && obj=$f
		done
	done
	echo "$obj"
}

# text_index OBJ: the section number of .text
text_index() {
	readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text .*/\1/p'
}

# kallsyms_of OBJ BASE: "ADDR t NAME" for each function of OBJ's .text, as
# if its .text were loaded at BASE (kallsyms has text symbols in any order).
kallsyms_of() {
	local ndx
	ndx=$(text_index "$1")
	readelf -sW "$1" | awk -v ndx="$ndx" '$4 == "FUNC" && $7 == ndx { print $2, $8 }' |
		while read -r value name; do
			printf '%x t %s\n' $(($2 + 0x$value)) "$name"
		done
}

# func_value OBJ FUNC: the function's offset in .text (hex, no 0x)
func_value() {
	local ndx
	ndx=$(text_index "$1")
	readelf -sW "$1" | awk -v ndx="$ndx" -v f="$2" '$4 == "FUNC" && $7 == ndx && $8 == f { print $2; exit }'
}

# insn_offsets OBJ FUNC REGEX: offsets into FUNC (decimal) of the
# instructions whose objdump text matches REGEX (extended).
insn_offsets() {
	local start
	start=$(func_value "$1" "$2")
	[ -n "$start" ] || return 1
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" |
		sed -n 's/^ *\([0-9a-f]*\):\t\(.*\)$/\1 \2/p' | grep -E "^[0-9a-f]+ .*($3)" |
		while read -r addr _; do
			echo $((0x$addr - 0x$start))
		done
}

# member_offset OBJ STRUCT MEMBER: the member's offset, as pahole prints it
member_offset() {
	pahole -C "$2" "$1" 2>/dev/null |
		sed -n "s/.*[ *]$3\( __attribute__((__aligned__([0-9]*)))\)\{0,1\}; *\/\* *\([0-9]*\) .*/\2/p" |
		head -1
}
