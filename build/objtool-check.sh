#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# objtool-check.sh prepare REPO OBJ
# objtool-check.sh check OBJ ERRLOG
#
# objtool runs on every object as Kbuild builds it, and on vmlinux.o at
# every link, and prints its findings as warnings: it does not fail the
# build.  "prepare" removes from OBJ the objects of the project's kernel
# files, new and patched, so that an incremental build compiles them again
# (ccache makes that cheap) and objtool looks at them again.  "check"
# fails when the build's standard error ERRLOG holds an objtool warning.
set -euo pipefail
case ${1:-} in
prepare)
	repo=$2 obj=$3
	[ -d "$obj" ] || exit 0
	{
		(cd "$repo" && find arch kernel samples -name '*.[cS]')
		sed -n 's|^+++ b/\(.*\.[cS]\)\([[:space:]].*\)\?$|\1|p' "$repo"/patches/*.patch
	} | sort -u | while read -r f; do
		rm -f "$obj/${f%.*}.o"
	done
	;;
check)
	obj=$2 err=$3
	if grep -q 'warning: objtool:' "$err"; then
		echo "objtool: ERROR: warnings in the build of $obj:" >&2
		grep 'warning: objtool:' "$err" | head -n 20 >&2
		echo "objtool: the full standard error is in $err" >&2
		exit 1
	fi
	echo "objtool: no warning in the build of $obj"
	;;
*)
	echo "usage: objtool-check.sh prepare REPO OBJ | check OBJ ERRLOG" >&2
	exit 2
	;;
esac
