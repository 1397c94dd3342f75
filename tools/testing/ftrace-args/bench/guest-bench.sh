#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh FTA_BENCH [percall]: the `make bench` measurements, in one
# guest run; with "percall", only the per-call rows.
# Every ratio compares numbers measured side by side in this same run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=stats.sh
. "$here/stats.sh"
bench=$1
T=/sys/kernel/tracing
reps=${BENCH_REPS:-11}
calls=${BENCH_CALLS:-100000}

reset() {
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/trace
}
row() { printf '%-56s %12s %12s\n' "$@"; }
ratio() { echo "($1) / ($2)" | bc -l | xargs printf %.2f; }
# x RATIO: RATIO with an "x", a noise flag as it is
x() { case $1 in noise*) echo "$1" ;; *) echo "${1}x" ;; esac; }
need() { grep -qx "$1" $T/available_filter_functions || { echo "$1 is not traceable" >&2; exit 1; }; }

# percall WORKLOAD FUNC CALLS MODE...: in each repetition, the untraced
# loop, the loop under each MODE, and the untraced loop again, back to back;
# a MODE's overhead is its time minus the mean of the two untraced loops
# around it.  A MODE is a tracer, or TRACER+OPTION.  Leaves the untraced
# ns/call in /tmp/pc.base, the per-repetition overheads in /tmp/pc.MODE and
# their ratio to the first MODE's in /tmp/pc.MODE.r, and the distance
# between the two untraced loops of each repetition in /tmp/pc.noise.
percall() {
	local wl=$1 fn=$2 n=$3 m b1 b2 t tracer opt
	shift 3
	first_mode=$1
	need "$fn"
	: > /tmp/pc.base
	: > /tmp/pc.noise
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
		distance "$b1" "$b2" >> /tmp/pc.noise
		for m in "$@"; do
			echo "$(cat "/tmp/pc.$m.t") - ($b1 + $b2) / 2" | bc -l >> "/tmp/pc.$m"
		done
		for m in "$@"; do
			echo "($(tail -n 1 "/tmp/pc.$m")) / ($(tail -n 1 "/tmp/pc.$first_mode"))" |
				bc -l >> "/tmp/pc.$m.r"
		done
	done
}
ovh() { median < "/tmp/pc.$1" | xargs printf %.1f; }
base() { median < /tmp/pc.base | xargs printf %.1f; }
# pcnoise MODE, pcclear MODE: MODE's noise; is its overhead clear of it?
pcnoise() { noise "/tmp/pc.$1" /tmp/pc.noise; }
pcclear() { clear_of_noise "/tmp/pc.$1" /tmp/pc.noise; }
# rat MODE: MODE's ratio to the first mode, or a flag where either
# overhead is not clearly above its noise (stats.sh).
rat() {
	ratio_or_noise "/tmp/pc.$1.r" /tmp/pc.noise "/tmp/pc.$1" "/tmp/pc.$first_mode"
}

reset
echo "ftrace-args benchmark, kernel $(uname -r), $(nproc) CPUs"
if [ "${BENCH_ICOUNT:-0}" = off ]; then
	echo "Absolute numbers come from QEMU TCG (software emulation) without -icount:"
	echo "the host's time spent in QEMU's translated code, with the host's noise; not"
	echo "real-hardware times.  Compare the ratios, measured side by side in this run."
else
	sh=${BENCH_ICOUNT:-0}
	echo "Absolute numbers come from QEMU TCG (software emulation) with -icount"
	echo "shift=$sh: each instruction executed takes $((1 << sh)) guest ns, so they"
	echo "repeat from run to run but are not real-hardware times.  Compare the"
	echo "ratios, measured side by side in this run."
fi
echo "Medians of $reps repetitions."
echo

# BENCH_ONLY=bpf: the BPF rows alone (a quicker run while they change);
# BENCH_ONLY=tools: multitrace against bpftrace alone
only=${BENCH_ONLY:-}
areps=${BENCH_ATTACH_REPS:-3}
if [ -z "$only" ]; then
# --- per-call overhead -------------------------------------------------------
percall getppid __do_sys_getppid "$calls" function
b=$(base)
row "per-call: __do_sys_getppid ($calls calls)" "ns/call" "vs untraced"
row "  untraced" "$b" "1.00"
f=$(ovh function)
if pcclear function; then r=$(ratio "$b + $f" "$b"); else r="noise(+-$(pcnoise function))"; fi
row "  function tracer" "$(echo "$b + $f" | bc -l | xargs printf %.1f)" "$r"
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
# A user string: do_faccessat() with a mode that is not valid returns at
# once, so the untraced call is short and steady and the cost of reading
# the string is not lost in the path walk's spread (see fta-bench.c).
percall badmode do_faccessat "$calls" function function_args \
	function_args+funcargs-strings
row "  do_faccessat, a user string, -EINVAL (untraced $(base) ns)" "" ""
f=$(ovh function); a=$(ovh function_args); s=$(ovh function_args+funcargs-strings)
row "    function" "$f" "1.00"
row "    function_args, strings off" "$a" "$(rat function_args)"
row "    function_args, strings on" "$s" "$(rat function_args+funcargs-strings)"
if pcclear function_args && pcclear function_args+funcargs-strings; then
	row "    strings on vs off (ratio of the medians)" "" "$(ratio "$s" "$a")"
else
	row "    strings on vs off" "" "noise"
fi
row "    noise of the function row, ns (a ratio needs 3x noise)" "$(pcnoise function)" ""
echo

# "percall": only the per-call rows (the second kernel of BENCH_KERNEL=both)
fi
if [ "${2:-}" != percall ]; then
if [ -z "$only" ]; then
# --- enable time ---------------------------------------------------------------
nfuncs=$(wc -l < $T/available_filter_functions)
row "enable time, us (of $nfuncs functions)" "function" "function_args"
row "  (medians of $reps enables each, models cached; ratio; first enable)" "" ""
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
	# The first function_args enable builds the models; then the two
	# tracers take turns
	read -r afirst _ _ < <("$bench" toggle function_args 1)
	: > /tmp/en.f
	: > /tmp/en.a
	for _ in $(seq "$reps"); do
		"$bench" toggle function 1 | cut -d' ' -f1 >> /tmp/en.f
		"$bench" toggle function_args 1 | cut -d' ' -f1 >> /tmp/en.a
	done
	row "  N=$n" "$(median < /tmp/en.f)" "$(median < /tmp/en.a)"
	row "    function_args vs function; first enable" "$(x "$(time_ratio /tmp/en.a /tmp/en.f)")" "$afirst"
done
reset
echo

# --- batch direct interface ------------------------------------------------------
# The module ftrace-direct-batch-bench (samples/ftrace/) attaches its
# trampoline to the first N functions that '*' gives, in one batch, or one
# at a time through register_ftrace_direct() (legacy=1), and measures the
# attach in the kernel (last_ns).
P=/sys/module/ftrace_direct_batch_bench/parameters
bench_attach() {	# N [legacy=1]: prints the attach time in us
	local n=$1
	shift
	modprobe ftrace-direct-batch-bench filter='*' count="$n" "$@" >&2 || exit 1
	[ "$(cat $P/attached)" = "$n" ] || { echo "attached $(cat $P/attached), want $n" >&2; exit 1; }
	echo "$(cat $P/last_ns) / 1000" | bc -l | xargs printf '%.0f\n'
	rmmod ftrace-direct-batch-bench
}
row "direct attach time, us (medians of $areps)" "batch" "one at a time"
row "  (ratio: one at a time / batch)" "" ""
for n in 10 100 1000 10000; do
	: > "/tmp/at.b$n"
	: > "/tmp/at.l$n"
	for _ in $(seq "$areps"); do
		bench_attach $n >> "/tmp/at.b$n"
		# One at a time costs one code update per function to attach
		# and a tasks-RCU grace period per function to detach: at
		# N=10000 that is over an hour here, so it is measured up to
		# N=1000.
		[ $n -gt 1000 ] || bench_attach $n legacy=1 >> "/tmp/at.l$n"
	done
	if [ $n -le 1000 ]; then
		row "  N=$n" "$(median < "/tmp/at.b$n")" "$(median < "/tmp/at.l$n")"
		row "    one at a time / batch" "" "$(x "$(time_ratio "/tmp/at.l$n" "/tmp/at.b$n")")"
	else
		row "  N=$n" "$(median < "/tmp/at.b$n")" "not measured"
	fi
done
row "  batch t(10000) / t(1000)" "$(time_ratio /tmp/at.b10000 /tmp/at.b1000)" ""
echo

fi
# --- BPF attach ------------------------------------------------------------------
# fta-bpf-attach (bench/fta-bpf-attach.c) attaches an empty fentry and an
# empty fexit program to each of N functions: one program and one link per
# function and kind, or one fentry.multi and one fexit.multi link, and
# then closes the links.  It measures in user space, around the bpf()
# calls and the close()s.
bpfa=$(dirname "$bench")/fta-bpf-attach
val() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
bpf_attach() {	# N single|multi [--entry-only]: one run, into /tmp/ba.*
	local n=$1 how=$2 out
	shift 2
	[ "$how" = single ] || set -- --multi "$@"
	out=$("$bpfa" "$@" "/tmp/bf.$n") || exit 1
	[ "$(val funcs "$out")" = "$n" ] || { echo "fta-bpf-attach: $out" >&2; exit 1; }
	val attach_us "$out" >> "/tmp/ba.$how$n"
	val detach_us "$out" >> "/tmp/bd.$how$n"
	val load_us "$out" >> "/tmp/bl.$how$n"
	if [ "$how" = multi ]; then
		echo "$(val images "$out") $(val image_bytes "$out")" > "/tmp/bm.$n"
	fi
}
ms() { median < "$1" | xargs -I{} echo "{} / 1000" | bc -l | xargs printf %.1f; }
# not_in PROFILE: the names of stdin that are not in PROFILE, the function
# profiler's names, which it cuts to 30 characters
not_in() { awk 'NR == FNR { p[$1]; next } !(substr($1, 1, 30) in p)' "$1" -; }
# profile OUT CMD...: the functions that CMD (a command or a shell
# function) calls, as the function profiler counts them, one name a line,
# in OUT; OUT is empty without the profiler
profile() {
	local out=$1 pe=/sys/kernel/tracing/function_profile_enabled
	shift
	: > "$out"
	[ -w $pe ] || return 0
	echo 1 > $pe
	"$@" > /dev/null || true
	echo 0 > $pe
	cat /sys/kernel/tracing/trace_stat/function* |
		awk '$2 ~ /^[0-9]+$/ { print $1 }' | sort -u > "$out"
}
# sratio SLOW FAST: time_ratio, or, for rows measured fewer than 3 times
# (single links, the other tools: minutes each), the plain ratio of the
# medians
sratio() {
	if [ "$(wc -l < "$1")" -ge 3 ]; then
		x "$(time_ratio "$1" "$2")"
	else
		echo "$(median < "$1") $(median < "$2") $(wc -l < "$1")" |
			awk '{ printf "%.1fx (%d run%s)\n", $1 / $2, $3, $3 == 1 ? "" : "s" }'
	fi
}
if [ "$only" = tools ]; then
	:
elif [ -x "$bpfa" ] && [ -e /sys/kernel/btf/vmlinux ]; then
	"$bpfa" --candidates > /tmp/bf.all
	ncand=$(wc -l < /tmp/bf.all)
	# One at a time costs a code update per link: 2000 single links took
	# 8 minutes on the test kernel, so N = 10000 would take most of an
	# hour.  Singles are measured up to BENCH_BPF_SINGLE_MAX functions,
	# once at N = 1000.
	smax=${BENCH_BPF_SINGLE_MAX:-1000}
	row "BPF fentry+fexit attach, ms (medians of $areps; singles at N=1000 once)" "single links" "multi links"
	row "  (2N single links / 2 multi links; of $ncand functions)" "" ""
	# N = 10000 and the all-candidates row are asked for (BENCH_BPF_NS,
	# BENCH_BPF_ALL=1): they add minutes.  (They crashed the bench kernel
	# on 2026-12-02, a recursion through migrate_enable() that the deny
	# list of patch 0023 ended; all 18767 candidates attached on
	# 2026-12-03.)
	for n in ${BENCH_BPF_NS:-100 1000}; do
		[ "$n" -le "$ncand" ] || { row "  N=$n" "n/a" "only $ncand"; continue; }
		head -n "$n" /tmp/bf.all > "/tmp/bf.$n"
		for h in single multi; do : > "/tmp/ba.$h$n"; : > "/tmp/bd.$h$n"; : > "/tmp/bl.$h$n"; done
		for r in $(seq "$areps"); do
			bpf_attach "$n" multi
			[ "$n" -gt "$smax" ] || { [ "$n" -ge 1000 ] && [ "$r" -gt 1 ]; } ||
				bpf_attach "$n" single
		done
		if [ "$n" -le "$smax" ]; then
			row "  N=$n attach" "$(ms "/tmp/ba.single$n")" "$(ms "/tmp/ba.multi$n")"
			row "    single / multi" "" "$(sratio "/tmp/ba.single$n" "/tmp/ba.multi$n")"
			row "  N=$n detach" "$(ms "/tmp/bd.single$n")" "$(ms "/tmp/bd.multi$n")"
			row "    single / multi" "" "$(sratio "/tmp/bd.single$n" "/tmp/bd.multi$n")"
			row "  N=$n program loads" "$(ms "/tmp/bl.single$n")" "$(ms "/tmp/bl.multi$n")"
		else
			row "  N=$n attach" "not measured" "$(ms "/tmp/ba.multi$n")"
			row "  N=$n detach" "not measured" "$(ms "/tmp/bd.multi$n")"
		fi
		read -r im by < "/tmp/bm.$n"
		row "  N=$n trampoline images, bytes (multi)" "$im" "$by"
		row "    bytes per function" "" "$(echo "$by / $n" | bc)"
	done
	if [ -s /tmp/ba.multi10000 ] && [ -s /tmp/ba.multi1000 ]; then
		row "  multi attach t(10000) / t(1000)" "" "$(time_ratio /tmp/ba.multi10000 /tmp/ba.multi1000)"
	fi
	# Every function that BPF can attach to, fentry only
	if [ "${BENCH_BPF_ALL:-0}" = 1 ]; then
		: > "/tmp/ba.multi$ncand"; : > "/tmp/bd.multi$ncand"; : > "/tmp/bl.multi$ncand"
		cp /tmp/bf.all "/tmp/bf.$ncand"
		bpf_attach "$ncand" multi --entry-only
		a=$(cat "/tmp/ba.multi$ncand")
		row "  fentry.multi on all $ncand: attach, detach ms" "$(ms "/tmp/ba.multi$ncand")" "$(ms "/tmp/bd.multi$ncand")"
		row "    functions attached per second" "" "$(echo "$ncand * 1000000 / $a" | bc)"
	else
		row "  N=10000, all candidates: not run (BENCH_BPF_ALL=1)" "" ""
	fi
else
	row "BPF attach: no fta-bpf-attach or no vmlinux BTF" "" ""
fi
echo

# --- BPF per call: the kernel tree's bench -------------------------------------
# tools/testing/selftests/bpf/bench (built by build-bpf-selftests): a
# kernel loop calls bpf_get_numa_node_id(), where the trigger program
# counts.  The time of one turn of the loop (the call, its trampoline
# and the program) is 1/rate: a ratio of rates is a ratio of those times,
# which includes the loop's own cost.  Each repetition runs every trigger
# in turn, and a ratio is the median of the per-repetition ones.  The
# wide link's other functions are ones that the bench does not call
# (below).
bb=${BENCH_BPF:-}
# A trigger that fails, or does not finish in BENCH_TRIG_TIMEOUT seconds
# (guest time, then it is killed), is dropped with a message: its rows
# print "-" and the others go on.
trig() {	# NAME: the rate in M calls/s, nothing if it failed
	timeout -s KILL "${BENCH_TRIG_TIMEOUT:-300}" \
		"$bb" -w 1 -d "${BENCH_BPF_SECS:-3}" -a "trig-$1" 2> "/tmp/tr.err" |
		sed -n 's/^Summary: hits *\([0-9.]*\) .*/\1/p' | grep . ||
		{ cat /tmp/tr.err >&2; echo "bench: trig-$1 failed or timed out" >&2; return 1; }
}
# BENCH_TRIGS=none leaves the per-call rows out
if [ "$only" = tools ]; then
	:
elif [ "${BENCH_TRIGS:-}" = none ]; then
	row "BPF per call: not run (BENCH_TRIGS=none)" "" ""
elif [ -x "$bb" ] && [ -s /tmp/bf.all ]; then
	# The wide link's other functions: 10000 candidates that a run of
	# trig-fentry does not call (the function profiler's hits during
	# it: the loop, the bench's threads, the timer and the scheduler),
	# so that its row measures what the link's width costs the traced
	# call, not runs of the program on functions the bench calls.
	# Without the profiler, the first 10000 (1000) candidates, and the
	# row is an upper bound.
	trig_fentry_1s() { BENCH_BPF_SECS=1 trig fentry; }
	profile /tmp/bf.hot trig_fentry_1s
	# (an empty profile would leave every candidate in: not that)
	if [ -s /tmp/bf.hot ] && grep -q -x -F bpf_get_numa_node_id /tmp/bf.hot; then
		not_in /tmp/bf.hot < /tmp/bf.all | head -n 10000 > /tmp/bf.wide
		wide=/tmp/bf.wide
		wideof="not called by the bench: $(wc -l < /tmp/bf.hot) functions it calls left out"
	else
		wideof="the first candidates; no function profiler: an upper bound"
		wide=/tmp/bf.10000
		[ -s $wide ] || wide=/tmp/bf.1000
	fi
	nwide=$(cat $wide 2> /dev/null | wc -l)
	rt() { cat "/tmp/tr.$1.t"; }
	# fprobe (kprobe_multi, f: events) on the partial save and, with
	# fprobe.full_regs=1 when it registers, on the full save as in 6.12.
	# The cost of a probe is its loop turn's time less that of
	# trig-kernel-count (the same loop, counting, no call and no probe:
	# the call of bpf_get_numa_node_id() is in both costs, which pulls
	# the ratio toward 1);
	# the f: event's is the time of trig-fentry with the event on
	# bpf_get_numa_node_id beside the fentry program, less trig-fentry's.
	knob=/sys/module/fprobe/parameters/full_regs
	fev() {	# FULL: trig-fentry with an f: event on the function
		tr=/sys/kernel/tracing
		kb=$(cat $tr/buffer_size_kb)
		echo 4 > $tr/buffer_size_kb
		echo "$1" > $knob
		echo 'f:fta_bench/numa bpf_get_numa_node_id' >> $tr/dynamic_events
		echo 0 > $knob
		echo 1 > $tr/events/fta_bench/numa/enable
		trig fentry || true
		echo 0 > $tr/events/fta_bench/numa/enable
		echo '-:fta_bench/numa' >> $tr/dynamic_events
		echo "$kb" > $tr/buffer_size_kb
	}
	# BENCH_TRIGS chooses the triggers (default: all, the fprobe ones
	# first); a row whose triggers did not run prints "-".
	trigs="fentry fentry-multi fexit fexit-multi kprobe-multi fentry-multi-wide wide10k"
	[ -w $knob ] && trigs="kernel-count kprobe-multi kprobe-multi@full kretprobe-multi kretprobe-multi@full fev fev@full $trigs"
	trigs=$(echo ${BENCH_TRIGS:-$trigs} | tr ' ' '\n' | awk '!seen[$0]++')
	ran() { for _t in "$@"; do [ -s "/tmp/tr.$_t.t" ] || return 1; done; }
	rm -f /tmp/tr.*.t
	for t in $trigs; do : > "/tmp/tr.$t"; done
	: > /tmp/tr.r.entry; : > /tmp/tr.r.exit; : > /tmp/tr.r.wide
	: > /tmp/tr.r.kp; : > /tmp/tr.r.krp; : > /tmp/tr.r.fev
	dropped=
	for rep in $(seq "$areps"); do
		for t in $trigs; do
			case " $dropped " in *" $t "*) continue ;; esac
			echo "bench: trig $t ($rep of $areps)" > /dev/console 2> /dev/null || true
			case $t in
			wide10k) BENCH_MULTI_FUNCS=$wide trig fentry-multi-wide || true ;;
			fev) fev 0 ;;
			fev@full) fev 1 ;;
			*@full)
				# the knob is read when the link's fprobe registers
				echo 1 > $knob
				trig "${t%@full}" || true
				echo 0 > $knob ;;
			*) trig "$t" || true ;;
			esac > "/tmp/tr.$t.t"
			if [ ! -s "/tmp/tr.$t.t" ]; then
				echo "bench: trig $t dropped (rep $rep)" | tee /dev/console >&2 || true
				dropped="$dropped $t"
				: > "/tmp/tr.$t"
				continue
			fi
			cat "/tmp/tr.$t.t" >> "/tmp/tr.$t"
		done
		! ran fentry fentry-multi ||
			echo "$(rt fentry) / $(rt fentry-multi)" | bc -l >> /tmp/tr.r.entry
		! ran fexit fexit-multi ||
			echo "$(rt fexit) / $(rt fexit-multi)" | bc -l >> /tmp/tr.r.exit
		! ran fentry-multi-wide wide10k ||
			echo "$(rt fentry-multi-wide) / $(rt wide10k)" | bc -l >> /tmp/tr.r.wide
		# cost(partial) / cost(full), each less the base's time
		c() { ! ran "$@" || echo "(1 / $(rt "$1") - 1 / $(rt "$3")) / (1 / $(rt "$2") - 1 / $(rt "$3"))" | bc -l; }
		c kprobe-multi kprobe-multi@full kernel-count >> /tmp/tr.r.kp
		c kretprobe-multi kretprobe-multi@full kernel-count >> /tmp/tr.r.krp
		c fev fev@full fentry >> /tmp/tr.r.fev
	done
	mr() { if [ -s "$1" ]; then median < "$1" | xargs printf %.3f; else echo -; fi; }
	row "BPF per call, bench trig-* (M calls/s, medians of $areps)" "rate" "time ratio"
	row "  trig-fentry" "$(mr /tmp/tr.fentry)" "1.00"
	row "  trig-fentry-multi, cost vs trig-fentry" "$(mr /tmp/tr.fentry-multi)" "$(mr /tmp/tr.r.entry)"
	row "  trig-fexit" "$(mr /tmp/tr.fexit)" "1.00"
	row "  trig-fexit-multi, cost vs trig-fexit" "$(mr /tmp/tr.fexit-multi)" "$(mr /tmp/tr.r.exit)"
	row "  trig-kprobe-multi" "$(mr /tmp/tr.kprobe-multi)" ""
	if [ -w $knob ]; then
		row "fprobe, partial save / full save (fprobe.full_regs)" "rate" "cost ratio"
		row "  trig-kernel-count (the base: the loop, no call)" "$(mr /tmp/tr.kernel-count)" ""
		row "  trig-kprobe-multi, full save" "$(mr /tmp/tr.kprobe-multi@full)" ""
		row "  trig-kprobe-multi, partial / full" "$(mr /tmp/tr.kprobe-multi)" "$(mr /tmp/tr.r.kp)"
		row "  trig-kretprobe-multi, full save" "$(mr /tmp/tr.kretprobe-multi@full)" ""
		row "  trig-kretprobe-multi, partial / full" "$(mr /tmp/tr.kretprobe-multi)" "$(mr /tmp/tr.r.krp)"
		row "  f: event beside trig-fentry, full save" "$(mr /tmp/tr.fev@full)" ""
		row "  f: event beside trig-fentry, partial / full" "$(mr /tmp/tr.fev)" "$(mr /tmp/tr.r.fev)"
	else
		row "  fprobe rows: no $knob (CONFIG_FPROBE_ARGS)" "" ""
	fi
	row "  trig-fentry-multi-wide, on 1 function" "$(mr /tmp/tr.fentry-multi-wide)" "1.00"
	row "  ... the same link on $nwide more, cost vs 1" "$(mr /tmp/tr.wide10k)" "$(mr /tmp/tr.r.wide)"
	row "    ($wideof)" "" ""
	if [ -s /tmp/tr.r.wide ]; then
		row "    (spread of that ratio: min, max)" "$(sort -n /tmp/tr.r.wide | head -n 1 | xargs printf %.3f)" "$(sort -n /tmp/tr.r.wide | tail -n 1 | xargs printf %.3f)"
	fi
else
	row "BPF per call: no bench (BENCH_BPF) or no candidate functions" "" ""
fi
echo

fi

if [ -z "$only" ]; then
# Per call: a direct trampoline on __do_sys_getppid next to function_args,
# the same trampoline of ftrace-direct-batch-bench both ways.  Through the
# batch interface the function stays on ftrace_caller (partial save);
# through register_ftrace_direct() (6.12) the direct ops asks for SAVE_REGS
# and the function moves to ftrace_regs_caller.
fn=__do_sys_getppid
need $fn
: > /tmp/dc.base
: > /tmp/dc.r
: > /tmp/dc.noise
: > /tmp/dc.bd
: > /tmp/dc.ld
for m in args batch legacy; do : > "/tmp/dc.$m"; done
for _ in $(seq "$reps"); do
	reset
	b1=$("$bench" loop "$calls" getppid)
	for m in args batch legacy; do
		reset
		case $m in
		batch) modprobe ftrace-direct-batch-bench filter=$fn ;;
		legacy) modprobe ftrace-direct-batch-bench filter=$fn legacy=1 ;;
		esac
		echo $fn > $T/set_ftrace_filter
		echo function_args > $T/current_tracer
		line=$(grep "^$fn " $T/enabled_functions)
		case $m in
		batch) echo "$line" | grep -qE '\) +D' || { echo "batch: not partial: $line" >&2; exit 1; } ;;
		legacy) echo "$line" | grep -qE '\) R +D' || { echo "legacy: no R: $line" >&2; exit 1; } ;;
		esac
		t=$("$bench" loop "$calls" getppid)
		reset
		[ $m = args ] || rmmod ftrace-direct-batch-bench
		echo "$t" > "/tmp/dc.$m.t"
	done
	b2=$("$bench" loop "$calls" getppid)
	echo "($b1 + $b2) / 2" | bc -l >> /tmp/dc.base
	distance "$b1" "$b2" >> /tmp/dc.noise
	for m in args batch legacy; do
		echo "$(cat "/tmp/dc.$m.t") - ($b1 + $b2) / 2" | bc -l >> "/tmp/dc.$m"
	done
	# the cost of each direct call, over function_args alone
	echo "$(tail -n 1 /tmp/dc.legacy) - $(tail -n 1 /tmp/dc.args)" | bc -l >> /tmp/dc.ld
	echo "$(tail -n 1 /tmp/dc.batch) - $(tail -n 1 /tmp/dc.args)" | bc -l >> /tmp/dc.bd
	echo "($(tail -n 1 /tmp/dc.ld)) / ($(tail -n 1 /tmp/dc.bd))" | bc -l >> /tmp/dc.r
done
dovh() { median < "/tmp/dc.$1" | xargs printf %.1f; }
row "per-call overhead with function_args on $fn" "ns/call" ""
row "  (untraced $(median < /tmp/dc.base | xargs printf %.1f) ns)" "" ""
row "    function_args alone" "$(dovh args)" ""
row "    + batch direct trampoline (ftrace_caller)" "$(dovh batch)" ""
row "    + 6.12 direct trampoline (ftrace_regs_caller)" "$(dovh legacy)" ""
row "    the direct call's cost, full-regs / partial" "" "$(x "$(ratio_or_noise /tmp/dc.r /tmp/dc.noise /tmp/dc.ld /tmp/dc.bd)")"
row "      (costs over function_args: full-regs, partial)" "$(median < /tmp/dc.ld | xargs printf %.1f)" "$(median < /tmp/dc.bd | xargs printf %.1f)"
reset
echo

# Per call: one call-through record (arguments, return value, duration)
# against function_graph with funcgraph-retval, on sched_getaffinity.
if [ -e $T/set_ftrace_direct_multi ]; then
	fn=sched_getaffinity
	: > /tmp/ct.base
	: > /tmp/ct.r
	: > /tmp/ct.noise
	for m in graph ct; do : > "/tmp/ct.$m"; done
	for _ in $(seq "$reps"); do
		reset
		b1=$("$bench" loop "$calls" affinity)
		for m in graph ct; do
			reset
			if [ $m = graph ]; then
				echo $fn > $T/set_ftrace_filter
				echo 1 > $T/options/funcgraph-retval
				echo function_graph > $T/current_tracer
			else
				# function_args itself on one function nobody calls
				echo ksys_sync > $T/set_ftrace_filter
				echo $fn > $T/set_ftrace_direct_multi
				echo function_args > $T/current_tracer
				grep -q "^$fn fargs_ct_tramp" $T/direct_functions ||
					{ echo "call-through not attached" >&2; exit 1; }
			fi
			t=$("$bench" loop "$calls" affinity)
			reset
			echo 0 > $T/options/funcgraph-retval
			echo > $T/set_ftrace_direct_multi
			echo "$t" > "/tmp/ct.$m.t"
		done
		b2=$("$bench" loop "$calls" affinity)
		echo "($b1 + $b2) / 2" | bc -l >> /tmp/ct.base
		distance "$b1" "$b2" >> /tmp/ct.noise
		for m in graph ct; do
			echo "$(cat "/tmp/ct.$m.t") - ($b1 + $b2) / 2" | bc -l >> "/tmp/ct.$m"
		done
		echo "($(tail -n 1 /tmp/ct.ct)) / ($(tail -n 1 /tmp/ct.graph))" | bc -l >> /tmp/ct.r
	done
	row "per-call overhead, entry and exit of $fn" "ns/call" "vs graph"
	row "  (untraced $(median < /tmp/ct.base | xargs printf %.1f) ns)" "" ""
	row "    function_graph, funcgraph-retval" "$(median < /tmp/ct.graph | xargs printf %.1f)" "1.00"
	row "    function_args call-through record" "$(median < /tmp/ct.ct | xargs printf %.1f)" "$(ratio_or_noise /tmp/ct.r /tmp/ct.noise /tmp/ct.ct /tmp/ct.graph)"
	reset
fi
fi

# --- Tools: multitrace against Debian's bpftrace and bcc ---------------------
# Each tool counts, per function, the calls that one process, the
# workload, makes to N of the BPF candidate functions (those it calls
# first): a shell that waits on a fifo, then execs one dd that copies a
# file 512 bytes at a time and fsyncs it.  Each tool filters on that
# process's pid (multitrace -p, bpftrace /pid == P/, funccount -p).
# attach: from the tool's start to its "attached" line (multitrace's
# own; bpftrace's BEGIN, which runs once every probe is attached;
# funccount's "Tracing"), polled every 20 ms; teardown: from the
# workload's end (SIGINT to bpftrace and funccount; multitrace -p ends
# by itself) to the tool's exit.  Both include the tool's own work:
# bpftrace 0.17 compiles and loads a kfunc (single fentry) program per
# function, funccount compiles its C program with clang and opens a
# kprobe per function, multitrace loads one program and attaches it with
# one multi link.  The counts of the same workload must agree within 1%.
mtool=$(dirname "$bench")/multitrace
if [ "${2:-}" != percall ] && { [ -z "$only" ] || [ "$only" = tools ]; }; then
if [ -x "$mtool" ] && command -v bpftrace > /dev/null && [ -x "$bpfa" ]; then
	# The candidates of at most 6 arguments: bpftrace 0.17's kfunc
	# takes no more ("Code not generated for probe" for the 7 of
	# shmem_write_end(), and the whole program fails)
	"$bpfa" --candidates 6 > /tmp/bt.all
	dd if=/dev/urandom of=/tmp/wl.f bs=4k count=8 2> /dev/null
	# funccount-bpfcc compiles its program against the kernel's headers
	# (the module root's build link) with clang in the guest: 15 s of
	# guest time for one function.  (With two vCPUs under -icount it
	# never got there: the stall that made run-bench boot one vCPU.)
	# BENCH_TOOLS_BCC=0 leaves it out.
	fcc=
	[ "${BENCH_TOOLS_BCC:-1}" = 1 ] && fcc=$(command -v funccount-bpfcc || true)
	# until FILE has a line matching RE, or the tool (pid $tp) is gone
	wait_for() {
		while ! grep -q -E "$2" "$1" 2> /dev/null; do
			kill -0 "$tp" 2> /dev/null || { cat "$1" >&2; return 1; }
			sleep 0.02
		done
	}
	tool() {	# TOOL N: one run, into /tmp/tl.{a,d,c}.TOOL.N
		local t0 t1 t2 sum wp
		# the console says where a long run is
		echo "bench: tools $1 N=$2 ($(date +%s) s)" > /dev/console 2> /dev/null || true
		# the same workload each time: dd creates its output anew
		# (truncating one left by the run before calls more)
		rm -f /tmp/wl.go /tmp/wl.g; mkfifo /tmp/wl.go
		sh -c 'read x < /tmp/wl.go; exec dd if=/tmp/wl.f of=/tmp/wl.g bs=512 conv=fsync 2> /dev/null' &
		wp=$!
		: > /tmp/tl.out; : > /tmp/tl.err
		t0=$(date +%s.%N)
		case $1 in
		multitrace)
			"$mtool" count -n 100000 -p "$wp" $(cat "/tmp/bt.$2") > /tmp/tl.out 2> /tmp/tl.err &
			tp=$!
			wait_for /tmp/tl.err '^attached ' || exit 1 ;;
		bpftrace)
			# (0.17 stops at 512 programs and 512 probes unless told)
			BPFTRACE_MAX_BPF_PROGS=$(($2 + 100)) BPFTRACE_MAX_PROBES=$(($2 + 100)) \
			bpftrace -e "BEGIN { printf(\"attached\\n\"); } $(sed 's/^/kfunc:/' "/tmp/bt.$2" | paste -sd,) /pid == $wp/ { @[probe] = count(); }" > /tmp/tl.out 2>&1 &
			tp=$!
			wait_for /tmp/tl.out '^attached$' || exit 1 ;;
		funccount)
			# its "Tracing" line reaches the file only unbuffered;
			# started in the background, it has SIGINT ignored,
			# and Python then takes no KeyboardInterrupt (the
			# SIGINT that ends it would not): env gives it back
			# (bcc stops at 1000 probes unless told)
			env --default-signal=INT PYTHONUNBUFFERED=1 BCC_PROBE_LIMIT=$(($2 + 100)) "$fcc" -p "$wp" -r "^($(paste -sd'|' "/tmp/bt.$2"))\$" > /tmp/tl.out 2>&1 &
			tp=$!
			wait_for /tmp/tl.out '^Tracing ' || exit 1 ;;
		esac
		t1=$(date +%s.%N)
		echo go > /tmp/wl.go
		wait "$wp"
		t2=$(date +%s.%N)
		[ "$1" = multitrace ] || kill -INT "$tp"
		wait "$tp" || { cat /tmp/tl.out /tmp/tl.err >&2; exit 1; }
		case $1 in
		# the summary: "NAME CALLS" after its "--- " line
		multitrace) sum=$(sed -n '/^--- /,$p' /tmp/tl.out | awk 'NR > 1 { s += $NF } END { print s + 0 }') ;;
		bpftrace) sum=$(awk '/^@\[.*\]: [0-9]+$/ { s += $NF } END { print s + 0 }' /tmp/tl.out) ;;
		# "FUNC COUNT" rows after the "FUNC" header
		funccount) sum=$(sed -n '/^FUNC /,$p' /tmp/tl.out | awk 'NR > 1 && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }') ;;
		esac
		echo "$t1 - $t0" | bc -l >> "/tmp/tl.a.$1.$2"
		echo "$(date +%s.%N) - $t2" | bc -l >> "/tmp/tl.d.$1.$2"
		echo "$sum" >> "/tmp/tl.c.$1.$2"
	}
	s2() { median < "$1" | xargs printf %.2f; }
	# What the workload calls: VFS, syscalls, files, the page cache.
	# Not the allocator, dentry and fsnotify functions that every task
	# calls all the time: with those probed, each of their calls, from
	# any task (the tools' own, while they attach the rest), is a probe
	# and a BPF run under TCG, which the rows would measure instead.
	hot='^(vfs_|ksys_|do_sys|__x64_sys_|__do_sys_|file|fd|fget|fput|filemap_|generic_|shmem_|rw_verify)'
	# bpftrace holds a program and a link fd per function
	ulimit -n 65536
	tools="multitrace bpftrace"
	[ -n "$fcc" ] && tools="$tools funccount"
	# BENCH_TOOL_REPS: the runs of each tool at each N (default
	# BENCH_ATTACH_REPS): bpftrace and funccount take minutes of guest
	# time each at N = 1000
	treps=${BENCH_TOOL_REPS:-$areps}
	# The rest of the N: candidates that a start of Python (bcc's
	# language) and a second of the idle guest do not call (the
	# function profiler's hits), in address order.  Without a profile
	# (no profiler, or one that missed vfs_read), the first candidates.
	python_idle() { python3 -c pass; sleep 1; }
	profile /tmp/bt.busy python_idle
	if grep -q -x -F vfs_read /tmp/bt.busy; then
		row "tools: the functions the workload calls, then $(wc -l < /tmp/bt.busy) busy ones left out" "" ""
	else
		row "tools: no function profile: busy functions not left out" "" ""
		: > /tmp/bt.busy
	fi
	# Each tool once before the timed runs, so that none of them pays
	# for reading its files over 9p the first time (under -icount the
	# guest's clock runs on while it waits for the host)
	"$mtool" --help > /dev/null 2>&1 || true
	bpftrace --version > /dev/null 2>&1 || true
	[ -z "$fcc" ] || "$fcc" --help > /dev/null 2>&1 || true
	for n in ${BENCH_TOOL_NS:-100 1000}; do
		{
			grep -E "$hot" /tmp/bt.all
			grep -v -E "$hot" /tmp/bt.all | not_in /tmp/bt.busy
		} | head -n "$n" > "/tmp/bt.$n"
		for t in $tools; do
			: > "/tmp/tl.a.$t.$n"; : > "/tmp/tl.d.$t.$n"; : > "/tmp/tl.c.$t.$n"
		done
		for _ in $(seq "$treps"); do
			for t in $tools; do
				tool "$t" "$n"
			done
		done
		row "N=$n functions: s (medians of $treps)" "other tool" "multitrace"
		for t in $tools; do
			[ $t = multitrace ] && continue
			row "  $t: start to attached" "$(s2 "/tmp/tl.a.$t.$n")" "$(s2 "/tmp/tl.a.multitrace.$n")"
			# (fewer than 3 runs: the ratio of the medians)
			row "    $t / multitrace" "" "$(sratio "/tmp/tl.a.$t.$n" "/tmp/tl.a.multitrace.$n")"
			row "  $t: teardown" "$(s2 "/tmp/tl.d.$t.$n")" "$(s2 "/tmp/tl.d.multitrace.$n")"
			row "    $t / multitrace" "" "$(sratio "/tmp/tl.d.$t.$n" "/tmp/tl.d.multitrace.$n")"
			cb=$(median < "/tmp/tl.c.$t.$n"); cm=$(median < "/tmp/tl.c.multitrace.$n")
			row "  $t: calls of the workload counted" "$cb" "$cm"
			# the same calls within 1%, or the bench fails
			if ! echo "$cb $cm" | awk '{ d = $1 - $2; if (d < 0) d = -d; exit !($1 > 0 && d <= $1 / 100) }'; then
				row "    COUNTS DISAGREE (more than 1%)" "" ""
				exit 1
			fi
		done
	done
	[ -n "$fcc" ] || row "  funccount-bpfcc: not run (not installed, or BENCH_TOOLS_BCC=0)" "" ""
else
	row "tools: no multitrace, bpftrace or fta-bpf-attach" "" ""
fi
echo
fi
