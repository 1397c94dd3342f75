# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest-side test scripts.  Each test prints one line:
#   [PASS] name | [FAIL] name: why | [SKIP] name: why
# and run-tests on the host counts them.

TRACING=/sys/kernel/tracing

pass() { echo "[PASS] $1"; }
fail() { echo "[FAIL] $1: $2"; }
skip() { echo "[SKIP] $1: $2"; }

# Put tracing back to a known state between tests.
reset_tracing() {
	echo 0 > $TRACING/tracing_on
	echo nop > $TRACING/current_tracer
	echo > $TRACING/set_ftrace_filter
	echo > $TRACING/set_ftrace_notrace
	echo > $TRACING/set_ftrace_pid
	echo > $TRACING/trace
	echo 1 > $TRACING/tracing_on
}

# run_test NAME FUNC: run FUNC in a subshell; it returns 0 (pass), 1 (fail,
# with the reason on stdout) or 2 (skip, with the reason on stdout).
run_test() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	case $rc in
	0) pass "$name" ;;
	2) skip "$name" "$(echo "$out" | tail -n 1)" ;;
	*) fail "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')" ;;
	esac
	reset_tracing >/dev/null 2>&1
}
