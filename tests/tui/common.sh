# Helpers for the TUI's tmux tests (sourced after tests/lib.sh): T runs
# tmux on this test's server, cap captures the pane, wait_for and keys
# wait for text, start opens c2cscope report -i $DATA $ARGS in 200x50.
# each start gets its own server: a killed one may still hold its socket
RUNS=0
T() { tmux -L "c2c-tui-$$-$RUNS" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

norm() { tr -s ' ' | sed 's/^ //; s/ $//'; }
cap() { T capture-pane -t tui -p; }

# settled: until two captures 0.05 s apart agree (2 s): a frame tmux has
# only partly read shows its top rows (the title) before the body
settled() {
	local i a b
	a=$(cap)
	for i in $(seq 40); do
		sleep 0.05
		b=$(cap)
		[ "$a" == "$b" ] && return 0
		a=$b
	done
}

# wait_for TEXT: until the pane shows TEXT (30 s), and the frame is whole
wait_for() {
	local i
	for i in $(seq 300); do
		cap | grep -qF -- "$1" && settled && return 0
		sleep 0.1
	done
	fail "pane never showed '$1':"
	cap | sed 's/^/    | /' >&2
	return 1
}

# keys KEYS... then TEXT to wait for
keys() {
	local want=$1
	shift
	T send-keys -t tui "$@"
	wait_for "$want"
}

# start [ENV...]: the TUI in a fresh 200x50 session (report -i DATA $ARGS), waiting
# for its screen $SCREEN; its exit code lands in $TMP/rc
ARGS=
SCREEN="Shared Data Cache Line Table"
start() {
	T kill-server 2>/dev/null
	RUNS=$((RUNS + 1))
	rm -f "$TMP/rc" "$TMP/pid"
	T -f /dev/null new-session -d -s tui -x 200 -y 50 -c "$TMP" \
		"trap '' INT; env $* sh -c 'echo \$\$ >$TMP/pid; exec $C2CSCOPE report -i $DATA $ARGS'; echo \$? >$TMP/rc; sleep 600"
	T set-option -t tui remain-on-exit on >/dev/null
	wait_for "$SCREEN"
}

# exited: until the command in the pane has exited (its code in $TMP/rc;
# 30 s: the sanitizer build on a loaded machine is slow to tear down)
exited() {
	local i
	for i in $(seq 300); do
		[ -s "$TMP/rc" ] && return 0
		sleep 0.1
	done
}

# redrawn KEYS...: send KEYS, then wait (30 s) until the pane differs from
# what it showed before them, for keys that add no text of their own
redrawn() {
	local i before
	before=$(cap)
	T send-keys -t tui "$@"
	for i in $(seq 300); do
		[ "$(cap)" != "$before" ] && settled && return 0
		sleep 0.1
	done
	fail "the pane did not change after $*"
	return 1
}
