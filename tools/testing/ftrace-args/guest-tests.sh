#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-tests.sh [--kmemleak] RELEASE SRC SHARD QUEUE
#
# One of the guests that `make test`, `make test-full` and `make test-debug`
# run side by side.  Shard 0 runs the harness tests first.  Then every guest
# takes ftracetest cases from the shared directory QUEUE until it is empty:
# a case is taken by renaming its file into QUEUE/taken/, which succeeds for
# one guest only.  Slow cases run alone, the others in batches (one
# ftracetest for several cases).  Each result is printed as
#   [PASS] ftracetest CASE: description    (PASS, XFAIL)
#   [FAIL] ftracetest CASE: description    (FAIL, UNRESOLVED, UNDEFINED)
#   [SKIP] ftracetest CASE: description: reason   (UNSUPPORTED, UNTESTED)
# With --kmemleak (the debug kernel), the guest then scans for leaks: what
# kmemleak reports after the cases fails the run.
here=$(cd "$(dirname "$0")" && pwd)
kmemleak=0
if [ "$1" = --kmemleak ]; then
	kmemleak=1
	shift
fi
release=$1
src=$2
shard=$3
queue=$4
ftdir=$src/tools/testing/selftests/ftrace

# the settings that run-tests gives every guest (the harness's too)
# shellcheck disable=SC1091
[ -f "$queue/env" ] && . "$queue/env"
read -r up _ < /proc/uptime
echo "== booted, ${up%.*}s after the kernel started"
if [ "$shard" = 0 ]; then
	echo "== harness tests"
	t0=$SECONDS
	"$here/harness.sh" "$release"
	echo "== harness tests took $((SECONDS - t0))s"
fi

# The debug guests boot with retbleed=stuff (run-tests): the return thunk
# and the call-depth accounting of the call thunks, the direct trampolines
# and the call-through trampoline run in every case.  Say so, and fail if
# the kernel chose otherwise; say whether the CPU offers IBT (QEMU's TCG
# does not: the ENDBRs are then checked only by objtool, at build time).
if [ "$shard" = 0 ] && grep -q " retbleed=stuff" /proc/cmdline; then
	rb=$(cat /sys/devices/system/cpu/vulnerabilities/retbleed 2>/dev/null)
	if [ "$rb" = "Mitigation: Stuffing" ]; then
		echo "[PASS] mitigations: retbleed: $rb (call depth tracking on)"
	else
		echo "[FAIL] mitigations: retbleed=stuff asked, retbleed: ${rb:-unknown}"
		dmesg | grep -iE 'retbleed|spectre' | head -n 5
	fi
	if grep -qw ibt /proc/cpuinfo; then
		echo "== IBT: enabled"
	else
		echo "== IBT: not enabled (the CPU offers no IBT; objtool checked the ENDBRs at build time)"
	fi
fi

n=0
runs=0
# The modules loaded before any case: a failed case's rerun leaves the
# modules that it loaded, which reset() unloads
mods0=$(awk '{ print $1 }' /proc/modules | sort)

# What ftracetest's initialize_ftrace does not put back, after a failed
# case's rerun, so that one failure does not become the next cases':
# the modules that the case loaded (the sample modules, kprobe_example;
# twice, for the ones that used another), and the fprobe knob
reset() {
	local m pass

	for pass in 1 2; do
		for m in $(awk '{ print $1 }' /proc/modules | sort |
			   comm -13 <(echo "$mods0") -); do
			rmmod "$m" 2> /dev/null && echo "---- reset: rmmod $m"
		done
	done
	echo 0 > /sys/module/fprobe/parameters/full_regs 2> /dev/null
	return 0
}
mkdir -p /tmp/ftracetest-logs

# take NAME: claim the queued case NAME and print it; fails if another
# guest took it first.
take() {
	local c
	mv "$queue/$1" "$queue/taken/$1.$shard" 2>/dev/null &&
		read -r c < "$queue/taken/$1.$shard" && echo "$c"
}

# cs TIME: TIME (seconds, with a fraction) in centiseconds, in CS.  The
# report forks as little as it can: in this guest a fork costs about
# 20 ms, a program about 0.1 to 0.3 s.
cs() {
	local f=${1#*.}00
	CS=$((10#${1%.*} * 100 + 10#${f:0:2}))
}

# report LOGS T0 CASE...: the results of one ftracetest run on CASE...,
# case by case.  ftracetest numbers its runs of the cases ([N], the
# "(instance)" runs after the others) and, with -k, keeps the log of run N
# as LOGS/N-NAME.tc-log.XXXXXX, whose first line names the case's file
# ("execute: PATH"): that is how a result finds its case.  A run ends
# when its log was last written, so the runs of a case took the time from
# the end of the run before (T0 for the first) to the end of its own.
report() {
	local logs=$1 prev t c k l res desc why f CS
	cs "$2"
	prev=$CS
	shift 2
	local -A lcase=() end=() took=() lines=() matrix=()
	while read -r t l; do
		k=${l%%-*}
		read -r f < "$logs/$l"
		lcase[$k]=${f##*/test.d/}
		cs "$t"
		end[$k]=$CS
	done < <(find "$logs" -name '*-log.*' -printf '%T@ %f\n')
	# A case that checks many inputs (the bad-input matrix) prints one
	# line per input; -k keeps a passed case's log, so show them.
	while IFS= read -r l; do
		f=${l%%:*}
		f=${f##*/}
		matrix[${f%%-*}]+=${l#*:}$'\n'
	done < <(grep -HE '^(case [0-9]+: |[a-z-]+: [0-9]+ cases: )' "$logs"/*-log.* 2>/dev/null)
	# "[1] (instance)  description	[RESULT]": one line per run.
	while IFS=$'\t' read -r k res desc; do
		c=
		for f in "$@"; do
			[ "$f" = "${lcase[$k]:-}" ] && c=$f && break
		done
		if [ -z "$c" ] || [ -z "${end[$k]:-}" ]; then
			echo "[FAIL] ftracetest run $k of ${*}: no log of a case of the batch"
			continue
		fi
		if [ -n "${end[$k]:-}" ]; then
			took[$c]=$((${took[$c]:-0} + ${end[$k]} - prev))
			prev=${end[$k]}
		fi
		case "$res" in
		PASS) l="[PASS] ftracetest $c: $desc" ;;
		XFAIL) l="[PASS] ftracetest $c: $desc (expected failure)" ;;
		UNSUPPORTED|UNTESTED)
			why=$(cat "$logs/$k-"*-log.* 2>/dev/null | grep -v '^+\|^$' | grep -v '^\[' | tail -n 1)
			l="[SKIP] ftracetest $c: $desc: ${res,,}${why:+: $why}" ;;
		*)
			l="[FAIL] ftracetest $c: $desc ($res)"
			for f in "$logs/$k-"*-log.*; do
				[ -e "$f" ] || continue
				l+=$'\n'"---- ${f##*/}"$'\n'"$(tail -n 60 "$f" | cut -c1-300)"
			done ;;
		esac
		lines[$c]+=$l$'\n'${matrix[$k]:-}
	done < <(sed -n 's/^\[\([0-9]*\)\] \(.*\)\t\[\([A-Z]*\)\]$/\1\t\3\t\2/p' "$logs.out")
	# ftracetest prints its counts at the end; without them it died
	if ! grep -q '^# of passed: ' "$logs.out"; then
		echo "[FAIL] ftracetest on $*: ended early"
		# its last line may be a "[N] description" with no end
		tail -n 20 "$logs.out"
		echo
	fi
	for c in "$@"; do
		if [ -z "${lines[$c]:-}" ]; then
			echo "[FAIL] ftracetest $c: no result"
			continue
		fi
		echo "== $c took $(((${took[$c]:-0} + 50) / 100))s"
		printf '%s' "${lines[$c]}"
	done
}

# Each guest claims cases from the queue until it is empty.  A slow case
# (queued as 0-*) runs alone; the others run in batches, one ftracetest
# for up to 12 cases: each ftracetest spends about 10 s under TCG on its
# own set-up and clean-up.  A batch takes at most half of a guest's share
# of the cases left, so that the guests end together, and at least 3
# cases: batches of one at the end cost more in set-up than the imbalance
# that they save.
while :; do
	batch=()
	left=("$queue"/*.case)
	# no match leaves the pattern itself; a first case that another
	# guest took since does not mean the queue is empty
	[ -e "${left[0]}" ] || [ ${#left[@]} -gt 1 ] || break
	max=$((${#left[@]} / (2 * ${FTA_SHARDS:-2})))
	[ $max -gt 12 ] && max=12
	[ $max -lt 3 ] && max=3
	for f in "${left[@]}"; do
		# another guest may have taken it since
		[ -e "$f" ] || continue
		name=${f##*/}
		[ ${#batch[@]} -ge $max ] && break
		case $name in 0-*) [ ${#batch[@]} -gt 0 ] && break ;; esac
		c=$(take "$name") || continue
		batch+=("$c")
		case $name in 0-*) break ;; esac
	done
	[ ${#batch[@]} -gt 0 ] || continue
	runs=$((runs + 1))
	# make test-full queues the BPF selftests as one slow item
	case ${batch[0]} in
	@bpf\ *)
		set -- ${batch[0]#@bpf }
		echo "== run $shard.$runs: BPF selftest $2"
		t0=$SECONDS
		"$here/bpf/run-bpf-selftests" "$1" "$2" 2>&1
		echo "== BPF selftest $2 took $((SECONDS - t0))s"
		continue ;;
	esac
	n=$((n + ${#batch[@]}))
	logs=/tmp/ftracetest-logs/$runs
	# If the guest hangs, this line names the cases that were running
	echo "== run $shard.$runs: ${batch[*]}"
	t0=$EPOCHREALTIME
	"$ftdir/ftracetest" -k -l "$logs" "${batch[@]/#/"$ftdir/test.d/"}" > "$logs.out" 2>&1
	report "$logs" "$t0" "${batch[@]}" | tee "$logs.report"
	# A case that failed runs again alone, which tells a failure that
	# needs the cases before it in the batch from one that does not.
	# --stop-fail skips ftracetest's clean-up after a failure, so the
	# top-level buffer still holds the records that the case counted.
	# The result of the first run is the one that counts.
	for c in "${batch[@]}"; do
		grep -q "^\[FAIL\] ftracetest $c: " "$logs.report" || continue
		# ftracetest sets these and, stopped at a failure, does not
		# put them back
		read -r rt < /proc/sys/kernel/sched_rt_runtime_us
		"$ftdir/ftracetest" --stop-fail --fail-unresolved -l "$logs.again" \
			"$ftdir/test.d/$c" > "$logs.again.out" 2>&1
		echo 0 > /sys/kernel/tracing/tracing_on
		echo "---- $c run again alone: $(grep -o '\[[A-Z]*\]$' "$logs.again.out" | tr '\n' ' ')"
		echo "---- trace (top level, first 40 records)"
		grep -v '^#' /sys/kernel/tracing/trace 2>/dev/null | head -n 40 | sed 's/^/  /'
		echo nop > /sys/kernel/tracing/current_tracer
		echo 0 > /sys/kernel/tracing/options/pause-on-trace 2>/dev/null
		echo "$rt" > /proc/sys/kernel/sched_rt_runtime_us
		echo 1 > /sys/kernel/tracing/tracing_on
		reset
	done
done
echo "== shard $shard ran $n ftracetest cases in $runs runs of ftracetest"

# Two scans with a pause, as is customary: kmemleak reports an object once
# it is older than 5 s and a scan found no reference to it, and a block
# whose content changed since the last scan gets another chance.
if [ $kmemleak = 1 ]; then
	kml=/sys/kernel/debug/kmemleak
	t0=$SECONDS
	if ! echo scan 2> /tmp/kmemleak.err > $kml; then
		echo "[FAIL] kmemleak: cannot scan: $(cat /tmp/kmemleak.err)"
		dmesg | grep -i kmemleak | tail -n 5
	else
		sleep 10
		echo scan > $kml
		cat $kml > /tmp/kmemleak.txt
		if [ -s /tmp/kmemleak.txt ]; then
			echo "[FAIL] kmemleak: $(grep -c '^unreferenced object' /tmp/kmemleak.txt) leaks after the tests"
			head -n 100 /tmp/kmemleak.txt
		else
			echo "[PASS] kmemleak: no leak after the tests"
		fi
	fi
	echo "== kmemleak took $((SECONDS - t0))s"
fi
exit 0
