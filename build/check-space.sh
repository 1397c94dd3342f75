#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-space.sh DIR GIB WHAT: stop with a clear message when the file
# system that holds DIR has less than GIB GiB free for WHAT.
set -euo pipefail
dir=$1 need=$2 what=$3
mkdir -p "$dir" 2>/dev/null || {
	echo "space: ERROR: cannot create $dir (set FTA_CACHE=... to a writable folder)" >&2
	exit 1
}
avail_kib=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
if [ "$avail_kib" -lt $((need * 1024 * 1024)) ]; then
	echo "space: ERROR: $what needs about $need GiB free under $dir; only $((avail_kib / 1024)) MiB left." >&2
	echo "space: free some space there, or point FTA_CACHE=... at a larger file system." >&2
	exit 1
fi
