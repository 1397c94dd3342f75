#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh FTA_BENCH: the `make bench` measurements, in one guest run.
# Every ratio compares numbers measured side by side in this same run.
set -eu
bench=$1
T=/sys/kernel/tracing
reps=${BENCH_REPS:-7}
calls=${BENCH_CALLS:-200000}

median() { sort -g | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }
reset() {
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/trace
}
row() { printf '%-56s %12s %12s\n' "$@"; }
ratio() { echo "$1 / $2" | bc -l | xargs printf %.2f; }
need() { grep -qx "$1" $T/available_filter_functions || { echo "$1 is not traceable" >&2; exit 1; }; }

# percall WORKLOAD FUNC CALLS MODE...: in each repetition, the untraced loop
# and then the loop under each MODE, back to back.  A MODE is a tracer, or
# TRACER+OPTION.  Leaves the median untraced ns/call in /tmp/pc.base and the
# per-repetition overheads (traced - untraced) in /tmp/pc.MODE.
percall() {
	local wl=$1 fn=$2 n=$3 m b t tracer opt
	shift 3
	need "$fn"
	: > /tmp/pc.base
	for m in "$@"; do : > "/tmp/pc.$m"; done
	for _ in $(seq "$reps"); do
		reset
		b=$("$bench" loop "$n" "$wl")
		echo "$b" >> /tmp/pc.base
		for m in "$@"; do
			tracer=${m%%+*}
			opt=
			[ "$m" = "$tracer" ] || opt=${m#*+}
			reset
			echo "$fn" > $T/set_ftrace_filter
			[ -z "$opt" ] || echo "$opt" > $T/trace_options
			echo "$tracer" > $T/current_tracer
			t=$("$bench" loop "$n" "$wl")
			reset
			[ -z "$opt" ] || echo "no$opt" > $T/trace_options
			echo "$t - $b" | bc -l >> "/tmp/pc.$m"
		done
	done
}
ovh() { median < "/tmp/pc.$1" | xargs printf %.1f; }

reset
echo "ftrace-args benchmark, kernel $(uname -r), $(nproc) CPUs"
echo "Absolute numbers come from QEMU TCG (software emulation): they are not"
echo "real-hardware times.  Compare the ratios, measured side by side in this run."
echo "Medians of $reps repetitions."
echo

# --- per-call overhead -------------------------------------------------------
percall getppid __do_sys_getppid "$calls" function
b=$(median < /tmp/pc.base)
row "per-call: __do_sys_getppid ($calls calls)" "ns/call" "vs untraced"
row "  untraced" "$b" "1.00"
f=$(ovh function)
row "  function tracer" "$(echo "$b + $f" | bc -l)" "$(ratio "$b + $f" "$b")"
row "  function tracer overhead (traced - untraced)" "$f" ""
echo

row "per-call overhead (traced - untraced)" "ns/call" "vs function"
percall flock __do_sys_flock "$calls" function function_args
row "  __do_sys_flock, 2 arguments (untraced $(median < /tmp/pc.base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args)
row "    function" "$f" "1.00"
row "    function_args" "$a" "$(ratio "$a" "$f")"
percall futex do_futex "$calls" function function_args
row "  do_futex, 7 arguments (untraced $(median < /tmp/pc.base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args)
row "    function" "$f" "1.00"
row "    function_args" "$a" "$(ratio "$a" "$f")"
percall openat do_sys_openat2 $((calls / 4)) function function_args \
	function_args+funcargs-strings
row "  do_sys_openat2, a user string (untraced $(median < /tmp/pc.base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args); s=$(ovh function_args+funcargs-strings)
row "    function" "$f" "1.00"
row "    function_args, strings off" "$a" "$(ratio "$a" "$f")"
row "    function_args, strings on" "$s" "$(ratio "$s" "$f")"
row "    strings on vs off" "" "$(ratio "$s" "$a")"
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
