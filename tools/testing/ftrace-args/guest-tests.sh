#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-tests.sh RELEASE SRC MODE SHARD NSHARDS: what `make test`
# (MODE=quick) or `make test-full` (MODE=full) runs in one guest boot.  The
# ftracetest cases are dealt round-robin to NSHARDS guests that run side by
# side; shard 0 also runs the harness tests.
here=$(cd "$(dirname "$0")" && pwd)
release=$1
src=$2
mode=$3
shard=${4:-0}
nshards=${5:-1}
ftdir=$src/tools/testing/selftests/ftrace

if [ "$shard" = 0 ]; then
	echo "== harness tests"
	"$here/harness.sh" "$release"
fi

echo "== ftracetest ($mode, shard $shard of $nshards)"
exec 2>&1
strip() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }
cases=()
if [ "$mode" = full ]; then
	list=$(cd "$ftdir/test.d" && find . -name '*.tc' | sed 's|^\./||' | LC_ALL=C sort)
else
	list=$(strip "$here/ftracetest-subset.txt" | while read -r c; do
		if [ -d "$ftdir/test.d/$c" ]; then
			(cd "$ftdir/test.d" && find "$c" -name '*.tc' | LC_ALL=C sort)
		elif [ -f "$ftdir/test.d/$c" ]; then
			echo "$c"
		else
			echo "[FAIL] ftracetest-subset.txt names $c, which is not in test.d" >&2
		fi
	done)
fi
excl=$(strip "$here/ftracetest-exclude.txt")
i=-1
for c in $list; do
	i=$((i + 1))
	[ $((i % nshards)) = "$shard" ] || continue
	if echo "$excl" | grep -qxF "$c"; then
		echo "[SKIP] ftracetest $c: excluded, see ftracetest-exclude.txt"
		continue
	fi
	cases+=("$ftdir/test.d/$c")
done
if [ ${#cases[@]} = 0 ]; then
	echo "[FAIL] ftracetest: no cases found under $ftdir/test.d"
	exit 1
fi
# ftracetest writes its logs under -l; the tree itself is read-only here.
# Through a pipe, so that ftracetest prints no colour codes.
"$ftdir/ftracetest" -l /tmp/ftracetest-logs "${cases[@]}" 2>&1 | cat
rc=${PIPESTATUS[0]}
echo "== ftracetest exit status $rc"
if [ $rc != 0 ]; then
	for f in /tmp/ftracetest-logs/*.log; do
		case "$f" in */ftracetest.log) continue ;; esac
		echo "---- $(basename "$f")"
		tail -n 30 "$f"
	done
fi
exit 0
