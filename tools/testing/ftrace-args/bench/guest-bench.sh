#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh FTA_BENCH: the `make bench` measurements, in one guest run.
# Every ratio compares numbers measured side by side in this same run.
set -eu
bench=$1
T=/sys/kernel/tracing
reps=${BENCH_REPS:-11}
calls=${BENCH_CALLS:-100000}

median() { sort -g | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }
reset() {
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/trace
}
row() { printf '%-56s %12s %12s\n' "$@"; }
ratio() { echo "($1) / ($2)" | bc -l | xargs printf %.2f; }
need() { grep -qx "$1" $T/available_filter_functions || { echo "$1 is not traceable" >&2; exit 1; }; }

# percall WORKLOAD FUNC CALLS MODE...: in each repetition, the untraced
# loop, the loop under each MODE, and the untraced loop again, back to back;
# a MODE's overhead is its time minus the mean of the two untraced loops
# around it.  A MODE is a tracer, or TRACER+OPTION.  Leaves the untraced
# ns/call in /tmp/pc.base, the per-repetition overheads in /tmp/pc.MODE and
# their ratio to the first MODE's in /tmp/pc.MODE.r.
percall() {
	local wl=$1 fn=$2 n=$3 m b1 b2 t tracer opt first
	shift 3
	first=$1
	need "$fn"
	: > /tmp/pc.base
	for m in "$@"; do : > "/tmp/pc.$m"; : > "/tmp/pc.$m.r"; done
	for _ in $(seq "$reps"); do
		reset
		b1=$("$bench" loop "$n" "$wl")
		for m in "$@"; do
			tracer=${m%%+*}
			opt=
			[ "$m" = "$tracer" ] || opt=${m#*+}
			reset
			echo "$fn" > $T/set_ftrace_filter
			echo "$tracer" > $T/current_tracer
			# a tracer's options apply while it is the current one
			[ -z "$opt" ] || echo "$opt" > $T/trace_options
			t=$("$bench" loop "$n" "$wl")
			[ -z "$opt" ] || echo "no$opt" > $T/trace_options
			reset
			echo "$t" > "/tmp/pc.$m.t"
		done
		b2=$("$bench" loop "$n" "$wl")
		echo "($b1 + $b2) / 2" | bc -l >> /tmp/pc.base
		for m in "$@"; do
			echo "$(cat "/tmp/pc.$m.t") - ($b1 + $b2) / 2" | bc -l >> "/tmp/pc.$m"
		done
		for m in "$@"; do
			echo "($(tail -n 1 "/tmp/pc.$m")) / ($(tail -n 1 "/tmp/pc.$first"))" |
				bc -l >> "/tmp/pc.$m.r"
		done
	done
}
ovh() { median < "/tmp/pc.$1" | xargs printf %.1f; }
base() { median < /tmp/pc.base | xargs printf %.1f; }
rat() { median < "/tmp/pc.$1.r" | xargs printf %.2f; }

reset
echo "ftrace-args benchmark, kernel $(uname -r), $(nproc) CPUs"
echo "Absolute numbers come from QEMU TCG (software emulation): they are not"
echo "real-hardware times.  Compare the ratios, measured side by side in this run."
echo "Medians of $reps repetitions."
echo

# --- per-call overhead -------------------------------------------------------
percall getppid __do_sys_getppid "$calls" function
b=$(base)
row "per-call: __do_sys_getppid ($calls calls)" "ns/call" "vs untraced"
row "  untraced" "$b" "1.00"
f=$(ovh function)
row "  function tracer" "$(echo "$b + $f" | bc -l | xargs printf %.1f)" "$(ratio "$b + $f" "$b")"
row "  function tracer overhead (traced - untraced)" "$f" ""
echo

row "per-call overhead (traced - untraced)" "ns/call" "vs function"
row "  (ratio: median of the per-repetition ratios)" "" ""
percall affinity sched_getaffinity "$calls" function function_args
row "  sched_getaffinity, 2 arguments (untraced $(base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args)
row "    function" "$f" "1.00"
row "    function_args" "$a" "$(rat function_args)"
percall futex do_futex "$calls" function function_args
row "  do_futex, 7 arguments (untraced $(base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args)
row "    function" "$f" "1.00"
row "    function_args" "$a" "$(rat function_args)"
percall openat do_sys_openat2 $((calls / 4)) function function_args \
	function_args+funcargs-strings
row "  do_sys_openat2, a user string (untraced $(base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args); s=$(ovh function_args+funcargs-strings)
row "    function" "$f" "1.00"
row "    function_args, strings off" "$a" "$(rat function_args)"
row "    function_args, strings on" "$s" "$(rat function_args+funcargs-strings)"
row "    strings on vs off (ratio of the medians)" "" "$(ratio "$s" "$a")"
echo

# --- enable time ---------------------------------------------------------------
nfuncs=$(wc -l < $T/available_filter_functions)
row "enable time, us (of $nfuncs functions)" "function" "function_args"
row "  (function_args: median with models cached; ratio; first enable)" "" ""
for n in 10 100 1000 10000; do
	if [ "$n" -gt "$nfuncs" ]; then
		row "  N=$n" "n/a" "only $nfuncs traceable"
		continue
	fi
	reset
	# Select by index (line number in available_filter_functions): O(1)
	# per function, so the setup does not dominate.
	seq 1 "$n" | tr '\n' ' ' > $T/set_ftrace_filter
	got=$(wc -l < $T/set_ftrace_filter)
	[ "$got" = "$n" ] || { echo "selected $got functions, want $n" >&2; exit 1; }
	read -r fon _ _ < <("$bench" toggle function 3)
	read -r aon _ afirst < <("$bench" toggle function_args 3)
	row "  N=$n" "$fon" "$aon"
	row "    function_args vs function; first enable" "$(ratio "$aon" "$fon")x" "$afirst"
done
reset
