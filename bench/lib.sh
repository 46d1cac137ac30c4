# Shared by the bench scripts (sourced): timing with GNU time into $tmp.
# measure NAME CMD...: appends "wall cpu rss_kb" to $tmp/NAME.times, stdout in NAME.out
measure() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/$name.time" >>"$tmp/$name.times"
}
# best NAME: "best_wall best_cpu max_rss" over the runs
best() {
	awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 } $3 > r { r = $3 }
	     END { print w, c, r }' "$tmp/$1.times"
}
