# SPDX-License-Identifier: GPL-2.0
# Helpers of the direct-* cases and of the cases that run a tool in the
# background (multitrace.tc, bcc-funccount.tc), which source this file
# (ftracetest runs only *.tc files).

# check_agree: every function in direct_functions has D in
# enabled_functions, and every D is in direct_functions
check_agree() {
	cut -d' ' -f1 direct_functions | sort > $TMPDIR/df
	grep -E '^[^ ]+ \([0-9]+\)( R|  )( I|  ) D' enabled_functions |
		cut -d' ' -f1 | sort > $TMPDIR/ef
	diff $TMPDIR/df $TMPDIR/ef
}

# ntramp: the BPF trampoline images, as kallsyms lists them
# (bpf_trampoline_KEY [bpf]; bpf_jit_kallsyms must be on)
ntramp() {
	grep -c ' bpf_trampoline_[0-9][0-9]*	\[bpf\]$' /proc/kallsyms || true
}
# wait_ntramp N: wait up to 20 s for ntramp to be N or less (an image goes
# after the grace periods that cover it, from a workqueue)
wait_ntramp() {
	for i in $(seq 200); do
		[ "$(ntramp)" -le "$1" ] && return 0
		sleep 0.1
	done
	echo "$(ntramp) BPF trampoline images, more than $1"
	return 1
}

# wait_gone FUNC: wait up to 10 s for FUNC to leave direct_functions (BPF
# frees a trampoline from a workqueue once its last link is closed)
wait_gone() {
	for _i in $(seq 100); do
		grep -q "^$1 " direct_functions || return 0
		sleep 0.1
	done
	return 1
}

# hold NAME FENTRY-ARGS...: $FENTRY (fta-fentry) attaches in the
# background and holds its programs until release NAME; pid_NAME is its
# pid
hold() {
	_n=$1
	shift
	rm -f $TMPDIR/$_n.up $TMPDIR/$_n.stop
	$FENTRY "$@" -- sh -c "touch $TMPDIR/$_n.up
		while [ ! -e $TMPDIR/$_n.stop ]; do sleep 0.05; done" &
	eval "pid_$_n=$!"
	while [ ! -e $TMPDIR/$_n.up ]; do
		kill -0 $! 2> /dev/null || exit_fail
		sleep 0.05
	done
}
release() {
	touch $TMPDIR/$1.stop
	eval "wait \$pid_$1"
}

# wait_line FILE PID RE [SECONDS]: wait until FILE has a line that
# matches the extended RE (600 s at most, or SECONDS); fails, printing
# FILE, when that does not come or process PID exits first
wait_line() {
	_n=$((${4:-600} * 5))
	while ! grep -q -E "$3" "$1" 2> /dev/null; do
		if ! kill -0 "$2" 2> /dev/null || [ $_n -le 0 ]; then
			# (it may have written the line just before it exited)
			grep -q -E "$3" "$1" 2> /dev/null && return 0
			cat "$1"
			return 1
		fi
		_n=$((_n - 1))
		sleep 0.2
	done
}

# interrupt PID: SIGINT to PID, a child of this shell, which must then
# exit (300 s at most); returns its exit status
interrupt() {
	kill -INT $1
	_n=3000
	while kill -0 $1 2> /dev/null; do
		_n=$((_n - 1))
		[ $_n -gt 0 ] || { echo "$1 did not exit on SIGINT"; return 1; }
		sleep 0.1
	done
	wait $1
}

# require_fail_function: the case is unsupported without fail_function;
# sets FF to its debugfs folder
require_fail_function() {
	FF=/sys/kernel/debug/fail_function
	if [ ! -d $FF ]; then
		echo "no $FF: CONFIG_FUNCTION_ERROR_INJECTION or CONFIG_FAIL_FUNCTION is off"
		exit_unsupported
	fi
}

# ff_inject FUNC ERRNO TIMES: FUNC (on fail_function's injectable list)
# returns -ERRNO in the tasks with make-it-fail, TIMES times (-1: always),
# each time it is called; "echo > $FF/inject" stops it
ff_inject() {
	# The task filter first: until it is on, every task would fail
	echo Y > $FF/task-filter
	echo 0 > $FF/interval
	echo "$3" > $FF/times
	echo 0 > $FF/space
	echo 0 > $FF/verbose
	echo 100 > $FF/probability
	echo "$1" > $FF/inject
	printf %#x "-$2" > $FF/$1/retval
}

# ct_cleanup [INSTANCE...]: for a call-through case's EXIT trap, so that a
# case that fails half-way leaves nothing to the next ones: the named
# instances (their tracer stopped, their selection emptied) are removed,
# then the top level's tracer, selection and filter are reset
ct_cleanup() {
	for _i in "$@"; do
		[ -d instances/$_i ] || continue
		echo nop > instances/$_i/current_tracer || :
		echo > instances/$_i/set_ftrace_direct_multi || :
		rmdir instances/$_i || :
	done
	echo nop > current_tracer || :
	echo > set_ftrace_direct_multi || :
	echo > set_ftrace_filter || :
}
