#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# assemble.sh BASE SRC REPO STAGE
#
# Build the kernel source tree SRC from three inputs:
#   1. the pristine base tree BASE (never modified);
#   2. REPO/patches/series, applied in order with patch -p1;
#   3. the project's own files under REPO, at their kernel-tree paths.
#
# The result is first made in STAGE (hard links to BASE, so it is cheap) and
# then synced into SRC by content: only files whose content changed are
# rewritten, so kbuild's timestamps stay meaningful and an unchanged input
# rebuilds nothing.
set -euo pipefail

base=$1
src=$2
repo=$3
stage=$4

overlay_dirs="arch Documentation include kernel samples tools"

# Two makes on one FTA_CACHE (make test, and make checkpatch beside it)
# would both rebuild STAGE and sync SRC: the second waits for the first,
# then finds SRC up to date.
mkdir -p "$(dirname "$stage")"
exec 9> "$stage.lock"
flock 9

# (the list goes to a file first: a project-files.sh that fails stops
# this, where in the pipe below it would hash an empty list)
files=$(mktemp)
trap 'rm -f "$files"' EXIT
"$repo/build/project-files.sh" "$repo" patches $overlay_dirs > "$files" || exit 1
inputs_hash() {
	(
		cd "$repo"
		while IFS= read -r f; do
			printf '%s %s\n' "$(sha1sum < "$f" | cut -d' ' -f1)" "$f"
		done < "$files"
		cat "$base/.fta-unpacked"
	) | sha1sum | cut -d' ' -f1
}

hash=$(inputs_hash)
if [ -f "$src/.fta-inputs" ] && [ "$(cat "$src/.fta-inputs")" = "$hash" ]; then
	exit 0
fi

echo "assemble: base + patches + project files -> $src"
rm -rf "$stage"
cp -al "$base" "$stage"

series=$repo/patches/series
if [ -f "$series" ]; then
	sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$series" | while read -r p _; do
		echo "assemble:   patch $p"
		# GNU patch writes a new file and renames it, so the hard-linked
		# base files are never written through.
		if ! patch -p1 -s -N -E --no-backup-if-mismatch -d "$stage" \
			-i "$repo/patches/$p"; then
			echo "assemble: ERROR: patches/$p does not apply" >&2
			exit 1
		fi
	done
fi

# The project's files, those that were hashed (not what a build left in
# the checkout: see project-files.sh).  rsync replaces files by rename,
# never in place: BASE stays pristine.
{ grep -v '^patches/' "$files" || true; } | rsync -lpI --files-from=- "$repo/" "$stage/"

mkdir -p "$src"
# By content, without times: unchanged files keep their mtime in SRC.
rsync -rlpc --delete --exclude=/.fta-inputs "$stage/" "$src/"
rm -rf "$stage"
echo "$hash" > "$src/.fta-inputs"
