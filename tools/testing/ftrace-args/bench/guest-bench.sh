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
func=__do_sys_getppid

median() { sort -g | awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }
reset() {
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/trace
}
row() { printf '%-52s %14s %10s\n' "$@"; }

reset
grep -qx "$func" $T/available_filter_functions || { echo "$func is not traceable" >&2; exit 1; }

# --- per-call overhead -------------------------------------------------------
# Each repetition measures the untraced and the traced loop back to back.
: > /tmp/base; : > /tmp/func; : > /tmp/ovh; : > /tmp/ratio
for _ in $(seq "$reps"); do
	reset
	b=$("$bench" loop "$calls")
	echo "$func" > $T/set_ftrace_filter
	echo function > $T/current_tracer
	f=$("$bench" loop "$calls")
	reset
	echo "$b" >> /tmp/base
	echo "$f" >> /tmp/func
	echo "$f - $b" | bc -l >> /tmp/ovh
	echo "$f / $b" | bc -l >> /tmp/ratio
done
b=$(median < /tmp/base)
f=$(median < /tmp/func)
o=$(median < /tmp/ovh)
r=$(median < /tmp/ratio)

echo "ftrace-args benchmark, kernel $(uname -r), $(nproc) CPUs"
echo "Absolute numbers come from QEMU TCG (software emulation): they are not"
echo "real-hardware times.  Compare the ratios, measured side by side in this run."
echo "Medians of $reps repetitions; per-call rows use $calls getppid() calls."
echo
row "per-call: $func" "ns/call" "ratio"
row "  untraced" "$b" "1.00"
row "  function tracer" "$f" "$(printf %.2f "$r")"
row "  function tracer overhead (traced - untraced)" "$o" ""
echo

# --- enable time ---------------------------------------------------------------
nfuncs=$(wc -l < $T/available_filter_functions)
row "enable time, function tracer (of $nfuncs functions)" "enable us" "vs N=10"
t10=
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
	read -r on off < <("$bench" toggle function 3)
	[ -n "$t10" ] || t10=$on
	row "  N=$n" "$on" "$(echo "$on / $t10" | bc -l | xargs printf %.1f)"
done
reset
