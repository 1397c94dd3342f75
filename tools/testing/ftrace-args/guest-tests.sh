#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-tests.sh [--kmemleak] RELEASE SRC SHARD QUEUE
#
# One of the guests that `make test`, `make test-full` and `make test-debug`
# run side by side.  Shard 0 runs the harness tests first.  Then every guest
# takes ftracetest cases from the shared directory QUEUE until it is empty:
# a case is taken by renaming its file into QUEUE/taken/, which succeeds for
# one guest only.  Each case runs on its own, and its result is printed as
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

if [ "$shard" = 0 ]; then
	echo "== harness tests"
	"$here/harness.sh" "$release"
fi

# shellcheck disable=SC1091
[ -f "$queue/env" ] && . "$queue/env"
n=0
mkdir -p /tmp/ftracetest-logs
for f in "$queue"/*.case; do
	[ -e "$f" ] || continue
	name=$(basename "$f")
	mv "$f" "$queue/taken/$name.$shard" 2>/dev/null || continue
	c=$(cat "$queue/taken/$name.$shard")
	n=$((n + 1))
	logs=/tmp/ftracetest-logs/$n
	t0=$SECONDS
	"$ftdir/ftracetest" -k -l "$logs" "$ftdir/test.d/$c" > "$logs.out" 2>&1
	echo "== $c took $((SECONDS - t0))s"
	# "[1] (instance)  description	[RESULT]": one line per run of the case.
	sed -n 's/^\[[0-9]*\] \(.*\)\t\[\([A-Z]*\)\]$/\2\t\1/p' "$logs.out" |
	while IFS=$'\t' read -r res desc; do
		case "$res" in
		PASS) echo "[PASS] ftracetest $c: $desc" ;;
		XFAIL) echo "[PASS] ftracetest $c: $desc (expected failure)" ;;
		UNSUPPORTED|UNTESTED)
			why=$(cat "$logs"/*-log.* 2>/dev/null | grep -v '^+\|^$' | grep -v '^\[' | tail -n 1)
			echo "[SKIP] ftracetest $c: $desc: ${res,,}${why:+: $why}" ;;
		*)
			echo "[FAIL] ftracetest $c: $desc ($res)"
			# The case's log, N-CASE-log.XXXXXX (kept by -k).
			for l in "$logs"/*-log.*; do
				[ -e "$l" ] || continue
				echo "---- $(basename "$l")"
				tail -n 60 "$l"
			done ;;
		esac
	done
	# A case that checks many inputs (the bad-input matrix) prints one
	# line per input; -k keeps a passed case's log, so show them.
	cat "$logs"/*-log.* 2>/dev/null |
		grep -E '^(case [0-9]+: |[a-z-]+: [0-9]+ cases: )' || true
	# For a failure that does not repeat: the records the case counted,
	# as the top-level buffer still holds them
	if grep -qE '^\[[0-9]+\] .*\[(FAIL|UNRESOLVED|UNDEFINED)\]$' "$logs.out"; then
		echo "---- trace (top level, first 40 records)"
		grep -v '^#' /sys/kernel/tracing/trace 2>/dev/null | head -n 40
	fi
	grep -q '^\[[0-9]*\] ' "$logs.out" || {
		echo "[FAIL] ftracetest $c: no result"
		tail -n 20 "$logs.out"
	}
done
echo "== shard $shard ran $n ftracetest cases"

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
