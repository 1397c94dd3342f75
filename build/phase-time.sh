#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# phase-time.sh NAME       a phase of this make run ended: record and print
#                          the seconds since the previous phase ended
# phase-time.sh --report   print every phase of this run and the total
#
# The run is FTA_RUN_START (seconds since the epoch, set once by the
# top-level make); its phases go to $FTA_CACHE/times/$FTA_RUN_START.
set -euo pipefail
start=${FTA_RUN_START:?}
dir=${FTA_CACHE:?}/times
f=$dir/$start
mkdir -p "$dir"
now=$(date +%s)

if [ "${1:-}" = --report ]; then
	[ -f "$f" ] || exit 0
	echo "time: phases of this run"
	awk '{ printf "time:   %-28s %5ds  (%dm%02ds)\n", $1, $2, $2 / 60, $2 % 60 }' "$f"
	t=$((now - start))
	printf 'time:   %-28s %5ds  (%dm%02ds)\n' total "$t" $((t / 60)) $((t % 60))
	exit 0
fi

last=$start
[ -s "$f" ] && last=$(awk 'END { print $3 }' "$f")
echo "$1 $((now - last)) $now" >> "$f"
echo "time: $1 $((now - last))s"
# Keep the last 20 runs.
ls -1t "$dir" | tail -n +21 | sed "s|^|$dir/|" | xargs -r rm -f
