#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.sh SRC REPO: scripts/checkpatch.pl --strict on every patch in
# REPO/patches and on every new C, header, assembly and rst file.
set -uo pipefail
src=$1
repo=$2
cp=$src/scripts/checkpatch.pl
bad=0
cd "$repo" || exit 1
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' patches/series); do
	# From the kernel tree: checkpatch run inside this repository would
	# check the .patch file as a new file instead of the change it holds.
	(cd "$src" && "$cp" --strict --quiet --no-summary "$repo/patches/$p") || bad=1
done
files=$(git ls-files -- arch Documentation include kernel samples tools |
	grep -E '\.(c|h|S|rst)$')
for f in $files; do
	(cd "$src" && "$cp" --strict --quiet --no-summary -f "$f") || bad=1
done
if [ $bad = 0 ]; then
	echo "checkpatch: clean ($(echo "$files" | grep -c .) files, patches/series)"
fi
exit $bad
